import type { PositionEvent } from '../../positions/types.js';
import { closedDetail, describeEvent, formatDelta, formatPercent, KIND_VERB, round4 } from '../format.js';
import { escapeHtml } from './html.js';
import { oneLine } from './text.js';

/** The public disclosure threshold below which positions are no longer published. */
const DISCLOSURE_THRESHOLD = '0.5%';

/** Column headers of an event table, in the order of {@link eventRow}. */
export const EVENT_COLUMNS = ['Holder', 'Change', 'Old → new', 'Δ', 'Date', 'Thresholds crossed'] as const;

/** An event whose upstream strings (holder, issuer name) are each folded onto one line. */
export function oneLineEvent(event: PositionEvent): PositionEvent {
  return {
    ...event,
    holder: oneLine(event.holder),
    issuer: { ...event.issuer, name: oneLine(event.issuer.name) },
  };
}

/** `1%, 2%`, or undefined when no threshold was crossed. */
export function thresholdList(event: PositionEvent): string | undefined {
  if (event.thresholdsCrossed.length === 0) return undefined;
  return event.thresholdsCrossed.map((t) => `${round4(t)}%`).join(', ');
}

/** One line that says what happened, for subjects: who did what, to which value. */
export function eventHeadline(event: PositionEvent): string {
  const { holder, issuer } = event;
  switch (event.kind) {
    case 'opened':
      return `${holder} opened a ${formatPercent(event.current?.value ?? 0)} short in ${issuer.name}`;
    case 'increased':
    case 'decreased':
      return `${holder} ${KIND_VERB[event.kind]} its short in ${issuer.name} to ${formatPercent(event.current?.value ?? 0)} (${formatDelta(event.delta)})`;
    case 'closed':
      return `${holder}'s short in ${issuer.name} fell below the ${DISCLOSURE_THRESHOLD} disclosure threshold`;
  }
}

/** The plain-text lines of one event: its sentence, then the thresholds it crossed. */
export function eventTextLines(event: PositionEvent): string[] {
  const lines = [`* ${describeEvent(event)}`];
  const thresholds = thresholdList(event);
  if (thresholds) lines.push(`  Thresholds crossed: ${thresholds}`);
  return lines;
}

/** The cells of one event row, plain text, in the order of {@link EVENT_COLUMNS}. */
function eventCells(event: PositionEvent): string[] {
  const before = event.previous ? formatPercent(event.previous.value) : '—';
  if (event.kind === 'closed') {
    // Δ and a new value would pretend to know where the position went; say what is known instead.
    return [
      event.holder,
      `closed (below ${DISCLOSURE_THRESHOLD})`,
      `${before} → below ${DISCLOSURE_THRESHOLD}; ${closedDetail(event)}`,
      '—',
      event.final?.date ?? '—',
      thresholdList(event) ?? '—',
    ];
  }
  return [
    event.holder,
    KIND_VERB[event.kind],
    `${before} → ${formatPercent(event.current?.value ?? 0)}`,
    formatDelta(event.delta),
    event.current?.date ?? '—',
    thresholdList(event) ?? '—',
  ];
}

/** The escaped HTML cells of one event row. */
export function eventRow(event: PositionEvent): string[] {
  return eventCells(event).map(escapeHtml);
}

/** Orders events newest first by detection time; ties keep their given order. */
export function newestFirst(a: PositionEvent, b: PositionEvent): number {
  return Date.parse(b.detectedAt) - Date.parse(a.detectedAt);
}

/** An issuer's aggregate disclosed short across events: before the oldest, after the newest. */
export function issuerTotals(
  events: readonly PositionEvent[],
): { before: number; after: number } | undefined {
  const byTime = [...events].sort(newestFirst);
  const newest = byTime[0];
  const oldest = byTime.at(-1);
  if (!oldest || !newest) return undefined;
  return { before: oldest.issuerTotal.before, after: newest.issuerTotal.after };
}

/** `3.40% → 3.52% (+0.12 pp)`. */
export function totalChange(total: { before: number; after: number }): string {
  return `${formatPercent(total.before)} → ${formatPercent(total.after)} (${formatDelta(total.after - total.before)})`;
}

/** Why "closed" is not "covered": said once under any message that holds a closed event. */
export const CLOSED_NOTE =
  `Closed: the position fell below the ${DISCLOSURE_THRESHOLD} public disclosure threshold and is no longer published; ` +
  'it is not known to be covered.';
