import type { PositionEvent } from '../../positions/types.js';
import { describeEvent, formatDelta, formatPercent } from '../format.js';
import { formatPeriod } from '../time.js';
import type { DigestMessage } from '../types.js';
import {
  CLOSED_NOTE,
  EVENT_COLUMNS,
  eventRow,
  eventTextLines,
  issuerTotals,
  newestFirst,
  oneLineEvent,
} from './event-facts.js';
import { escapeHtml, htmlHeading, htmlLayout, htmlList, htmlParagraph, htmlTable } from './html.js';
import type { RenderedEmail } from './rendered.js';
import { countChanges, toSubject } from './text.js';

/** How many of the largest moves open the digest. */
export const TOP_MOVERS = 5;

/** The events of one issuer in a digest, newest first, with its totals over the period. */
interface IssuerGroup {
  name: string;
  events: PositionEvent[];
  /** Latest total and net change: `3.52% (net +0.12 pp over the period)`. */
  total: string;
}

/** The largest moves by |Δ|; ties go to the newest. */
export function topMovers(events: readonly PositionEvent[], count = TOP_MOVERS): PositionEvent[] {
  return [...events]
    .sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta) || newestFirst(a, b))
    .slice(0, count);
}

/** Events grouped by issuer: issuers by their newest event, newest first; events newest first. */
function groupByIssuer(events: readonly PositionEvent[]): IssuerGroup[] {
  const groups = new Map<string, PositionEvent[]>();
  for (const event of [...events].sort(newestFirst)) {
    const group = groups.get(event.issuer.id);
    if (group) group.push(event);
    else groups.set(event.issuer.id, [event]);
  }
  // Map keeps insertion order, and insertion followed the newest-first sort.
  return [...groups.values()].flatMap((group) => {
    const [newest] = group;
    const total = issuerTotals(group);
    if (!newest || !total) return [];
    const net = formatDelta(total.after - total.before);
    return [
      {
        name: newest.issuer.name,
        events: group,
        total: `${formatPercent(total.after)} (net ${net} over the period)`,
      },
    ];
  });
}

/** The scheduled summary of every event staged for a channel over a period. */
export function renderDigest(message: DigestMessage): RenderedEmail {
  const events = message.events.map(oneLineEvent);
  const count = events.length === 0 ? 'no changes' : countChanges(events.length);
  const subject = toSubject(`Short positions digest: ${count}, ${formatPeriod(message.period)}`);
  const title = `Short positions digest: ${count}`;
  const periodLine = `Period: ${formatPeriod(message.period, { year: true })}`;
  const footer = `shortwatch digest · ${formatPeriod(message.period, { year: true })}`;

  if (events.length === 0) {
    const empty = 'No changes in this period.';
    const text = [title, periodLine, '', empty, '', '--', footer, ''].join('\n');
    const body = [htmlParagraph(escapeHtml(periodLine), true), htmlParagraph(empty)].join('\n');
    return { subject, text, html: htmlLayout({ title, body, footer }) };
  }

  const movers = topMovers(events);
  const groups = groupByIssuer(events);
  const hasClosed = events.some((e) => e.kind === 'closed');

  const text = [
    title,
    periodLine,
    '',
    'Top movers',
    ...movers.map((e) => `* ${describeEvent(e)}`),
    ...groups.flatMap((g) => [
      '',
      `${g.name}: total disclosed short ${g.total}`,
      ...g.events.flatMap(eventTextLines),
    ]),
    ...(hasClosed ? ['', CLOSED_NOTE] : []),
    '',
    '--',
    footer,
    '',
  ].join('\n');

  const body = [
    htmlParagraph(escapeHtml(periodLine), true),
    htmlHeading('Top movers'),
    htmlList(movers.map((e) => escapeHtml(describeEvent(e)))),
    ...groups.flatMap((g) => [
      htmlHeading(escapeHtml(g.name)),
      htmlParagraph(escapeHtml(`Total disclosed short ${g.total}`), true),
      htmlTable(EVENT_COLUMNS.map(escapeHtml), g.events.map(eventRow)),
    ]),
    ...(hasClosed ? [htmlParagraph(escapeHtml(CLOSED_NOTE), true)] : []),
  ].join('\n');

  return { subject, text, html: htmlLayout({ title, body, footer }) };
}
