import type { PositionEvent } from '../../positions/types.js';
import { formatDelta, formatPercent, issuerTotals, newestFirst } from '../format.js';
import { formatInstant, formatPeriod } from '../time.js';
import type { DigestMessage } from '../types.js';
import {
  CLOSED_NOTE,
  EVENT_COLUMNS,
  eventRow,
  eventSentence,
  eventTextLines,
  oneLineEvent,
} from './event-facts.js';
import { escapeHtml, htmlHeading, htmlLayout, htmlList, htmlParagraph, htmlTable } from './html.js';
import type { RenderedEmail } from './rendered.js';
import { countChanges, toSubject } from './text.js';

/** How many of the largest moves a "Top movers" section lists. */
export const TOP_MOVERS = 5;

/**
 * The section shows only in a digest of at least this many changes, where the movers are at most half
 * of the list: in a shorter one it would repeat most of what follows.
 */
export const TOP_MOVERS_MIN_CHANGES = 2 * TOP_MOVERS;

/** The events of one issuer in a digest, oldest first, with its totals over the period. */
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

/**
 * Events grouped by issuer: issuers by their newest event, newest first (the latest news on top); each
 * issuer's events in the order they happened, so a close reads after the cut that came before it.
 */
function groupByIssuer(events: readonly PositionEvent[]): IssuerGroup[] {
  const groups = new Map<string, PositionEvent[]>();
  for (const event of [...events].sort(newestFirst)) {
    const group = groups.get(event.issuer.id);
    if (group) group.push(event);
    else groups.set(event.issuer.id, [event]);
  }
  // Map keeps insertion order, and insertion followed the newest-first sort.
  return [...groups.values()].flatMap((newestFirstGroup) => {
    const [newest] = newestFirstGroup;
    const total = issuerTotals(newestFirstGroup);
    if (!newest || !total) return [];
    const net = formatDelta(total.after - total.before);
    return [
      {
        name: newest.issuer.name,
        events: [...newestFirstGroup].reverse(),
        total: `${formatPercent(total.after)} (net ${net} over the period)`,
      },
    ];
  });
}

/**
 * The period for a subject: `20 Nov 07:30 – 21 Nov 07:30`, `23 Nov 07:30 – 08:45` within one day, and
 * `23 Nov 08:45` when both ends read the same (a period sealed at the instant it opened).
 */
export function subjectPeriod(period: DigestMessage['period']): string {
  const from = formatInstant(period.from, period.timezone);
  const to = formatInstant(period.to, period.timezone);
  const zone = ` (${period.timezone})`;
  if (from === to) return `${from}${zone}`;
  const fromDay = from.replace(/ \d\d:\d\d$/, '');
  const toDay = to.replace(/ \d\d:\d\d$/, '');
  if (fromDay === toDay) return `${from} – ${to.slice(toDay.length + 1)}${zone}`;
  return formatPeriod(period);
}

/** `Acme plc: Marshall Wace cut 1.23% → 0.98% (-0.25 pp) on 2024-11-21`. */
function moverLine(event: PositionEvent): string {
  return `${event.issuer.name}: ${eventSentence(event)}`;
}

/** The scheduled summary of every event staged for a channel over a period. */
export function renderDigest(message: DigestMessage): RenderedEmail {
  const events = message.events.map(oneLineEvent);
  const count = events.length === 0 ? 'no changes' : countChanges(events.length);
  const subject = toSubject(`Short positions digest: ${count}, ${subjectPeriod(message.period)}`);
  const title = `Short positions digest: ${count}`;
  const periodLine = `Period: ${formatPeriod(message.period, { year: true })}`;
  const footer = `shortwatch digest · ${formatPeriod(message.period, { year: true })}`;

  if (events.length === 0) {
    const empty = 'No changes in this period.';
    const text = [title, periodLine, '', empty, '', '--', footer, ''].join('\n');
    const body = [htmlParagraph(escapeHtml(periodLine), true), htmlParagraph(empty)].join('\n');
    return { subject, text, html: htmlLayout({ title, body, footer }) };
  }

  const movers = events.length >= TOP_MOVERS_MIN_CHANGES ? topMovers(events).map(moverLine) : [];
  const groups = groupByIssuer(events);
  const hasClosed = events.some((e) => e.kind === 'closed');

  const text = [
    title,
    periodLine,
    ...(movers.length > 0 ? ['', 'Top movers', ...movers.map((line) => `* ${line}`)] : []),
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
    ...(movers.length > 0 ? [htmlHeading('Top movers'), htmlList(movers.map(escapeHtml))] : []),
    ...groups.flatMap((g) => [
      htmlHeading(escapeHtml(g.name)),
      htmlParagraph(escapeHtml(`Total disclosed short ${g.total}`), true),
      htmlTable(EVENT_COLUMNS, g.events.map(eventRow)),
    ]),
    ...(hasClosed ? [htmlParagraph(escapeHtml(CLOSED_NOTE), true)] : []),
  ].join('\n');

  return { subject, text, html: htmlLayout({ title, body, footer }) };
}
