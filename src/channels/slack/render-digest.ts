import type { PositionEvent } from '../../positions/types.js';
import { formatDelta } from '../format.js';
import { formatInstant } from '../time.js';
import type { DigestMessage } from '../types.js';
import { escapeMrkdwn } from './escape.js';
import { displayName, eventLine, KIND_EMOJI, totalChange } from './lines.js';
import type { Draft, Entry } from './pack.js';
import { changeCount } from './render-events.js';

const TOP_MOVERS = 3;

/** Newest detection first; ties keep their given order. */
function newestFirst(a: PositionEvent, b: PositionEvent): number {
  return Date.parse(b.detectedAt) - Date.parse(a.detectedAt);
}

/** The largest changes in pp; closed events are left out, as where they went is not known. */
function topMovers(events: readonly PositionEvent[]): Entry | undefined {
  const movers = events
    .filter((event) => event.kind !== 'closed')
    .sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta))
    .slice(0, TOP_MOVERS);
  if (movers.length === 0) return undefined;
  const items = movers.map(
    (event) =>
      `${KIND_EMOJI[event.kind]} *${displayName(event.holder)}* in ${displayName(event.issuer.name)} ${formatDelta(event.delta)}`,
  );
  return { line: `*Top movers:* ${items.join(' · ')}` };
}

/** Events grouped per issuer (events sorted newest first, so the issuer with the newest event leads). */
function issuerEntries(events: readonly PositionEvent[]): Entry[] {
  const groups = new Map<string, PositionEvent[]>();
  for (const event of events) {
    const group = groups.get(event.issuer.id);
    if (group) group.push(event);
    else groups.set(event.issuer.id, [event]);
  }
  return [...groups.entries()].flatMap(([id, group]) => {
    const newest = group[0];
    const oldest = group.at(-1);
    if (!newest || !oldest) return [];
    const total = totalChange({ before: oldest.issuerTotal.before, after: newest.issuerTotal.after });
    const heading = `*${displayName(newest.issuer.name)}* · total ${total}`;
    return group.map((event) => ({ group: { key: id, heading }, line: eventLine(event) }));
  });
}

/** A digest: the period and a count, the top movers, then a section per issuer, newest first. */
export function digestDraft(message: DigestMessage): Omit<Draft, 'mention'> {
  const { from, to, timezone } = message.period;
  const events = [...message.events].sort(newestFirst);
  const issuers = new Set(events.map((event) => event.issuer.id)).size;
  const period = `${formatInstant(from, timezone, { year: true })} → ${formatInstant(to, timezone, { year: true })} (${escapeMrkdwn(timezone)})`;
  const summary = `${changeCount(events.length)} in ${issuers} ${issuers === 1 ? 'issuer' : 'issuers'}`;
  const movers = topMovers(events);
  const body =
    events.length > 0 ? issuerEntries(events) : [{ line: 'No short position changed in this period.' }];
  return {
    header: 'Short positions digest',
    // The digest's text is a summary: one sentence per event would split it into many messages.
    headline: `Short positions digest, ${period}: ${summary}`,
    entries: [{ line: `*Period:* ${period} · ${summary}` }, ...(movers ? [movers] : []), ...body],
  };
}
