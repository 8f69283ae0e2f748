import type { PositionEvent } from '../../positions/types.js';
import { formatDelta, formatPercent, KIND_VERB, round4 } from '../format.js';
import { EMPTY_CELL, type EventColumn, escapeHtml } from './html.js';
import { clipChars, MAX_SUBJECT_NAME_CHARS, oneLine } from './text.js';

/** The public disclosure threshold below which positions are no longer published. */
const DISCLOSURE_THRESHOLD = '0.5%';

/** The columns of an event table, in the order of {@link eventCells}. */
export const EVENT_COLUMNS: readonly EventColumn[] = [
  { header: 'Holder', role: 'name' },
  { header: 'Change', role: 'word' },
  { header: 'Old → new', role: 'value' },
  { header: 'Δ', role: 'delta' },
  { header: 'Date', role: 'date' },
  { header: 'Crossed', role: 'value' },
];

/** An event whose upstream strings (holder, issuer name) are each folded onto one line. */
export function oneLineEvent(event: PositionEvent): PositionEvent {
  return {
    ...event,
    holder: oneLine(event.holder),
    issuer: { ...event.issuer, name: oneLine(event.issuer.name) },
  };
}

/** An event whose holder and issuer names are clipped to what a headline shows. */
export function subjectEvent(event: PositionEvent): PositionEvent {
  return {
    ...event,
    holder: clipChars(event.holder, MAX_SUBJECT_NAME_CHARS),
    issuer: { ...event.issuer, name: clipChars(event.issuer.name, MAX_SUBJECT_NAME_CHARS) },
  };
}

/** `1%, 2%`, or undefined when no threshold was crossed. */
export function thresholdList(event: PositionEvent): string | undefined {
  if (event.thresholdsCrossed.length === 0) return undefined;
  return event.thresholdsCrossed.map((t) => `${round4(t)}%`).join(', ');
}

/** One line that says what happened, for the title: who did what, to which value. */
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

/**
 * Old → new. A close says where the position went as far as is known, each value once:
 * `0.56% → below 0.5% (last disclosed 0.47%)`, or `0.43% → below 0.5%` when the last disclosure is the
 * value already shown.
 */
function valueChange(event: PositionEvent): string {
  const after = formatPercent(event.current?.value ?? 0);
  // An opening has no old value: `0.62%` alone says it better than `— → 0.62%`.
  if (!event.previous) return event.kind === 'closed' ? `below ${DISCLOSURE_THRESHOLD}` : after;
  const before = formatPercent(event.previous.value);
  if (event.kind !== 'closed') return `${before} → ${after}`;
  const final = event.final;
  const last =
    final && round4(final.value) !== round4(event.previous.value)
      ? ` (last disclosed ${formatPercent(final.value)})`
      : '';
  return `${before} → below ${DISCLOSURE_THRESHOLD}${last}`;
}

/** The facts of one event, plain text, one per column of {@link EVENT_COLUMNS}. */
export interface EventCells {
  holder: string;
  change: string;
  values: string;
  /** Δ and a new value of a close would pretend to know where the position went: none then. */
  delta: string | undefined;
  /** The disclosure date of the new value (of the last disclosure, for a close), when known. */
  date: string | undefined;
  thresholds: string | undefined;
}

/** The facts one event row and one text line both state. */
export function eventCells(event: PositionEvent): EventCells {
  const closed = event.kind === 'closed';
  return {
    holder: event.holder,
    change: KIND_VERB[event.kind],
    values: valueChange(event),
    delta: closed ? undefined : formatDelta(event.delta),
    date: closed ? event.final?.date : event.current?.date,
    thresholds: thresholdList(event),
  };
}

/** `Marshall Wace raised 1.11% → 1.23% (+0.12 pp) on 2024-11-20`: the facts of a row as a sentence. */
export function eventSentence(event: PositionEvent): string {
  const cells = eventCells(event);
  const delta = cells.delta ? ` (${cells.delta})` : '';
  const date = cells.date ? ` on ${cells.date}` : '';
  return `${cells.holder} ${cells.change} ${cells.values}${delta}${date}`;
}

/** The plain-text lines of one event: the facts of its row, then the thresholds it crossed. */
export function eventTextLines(event: PositionEvent): string[] {
  const lines = [`* ${eventSentence(event)}`];
  const thresholds = thresholdList(event);
  if (thresholds) lines.push(`  Thresholds crossed: ${thresholds}`);
  return lines;
}

/** The escaped HTML cells of one event row, in the order of {@link EVENT_COLUMNS}. */
export function eventRow(event: PositionEvent): string[] {
  const cells = eventCells(event);
  return [
    cells.holder,
    cells.change,
    cells.values,
    cells.delta ?? EMPTY_CELL,
    cells.date ?? EMPTY_CELL,
    cells.thresholds ?? EMPTY_CELL,
  ].map(escapeHtml);
}

/** `3.40% → 3.52% (+0.12 pp)`. */
export function totalChange(total: { before: number; after: number }): string {
  return `${formatPercent(total.before)} → ${formatPercent(total.after)} (${formatDelta(total.after - total.before)})`;
}

/** Why "closed" is not "covered": said once under any message that holds a closed event. */
export const CLOSED_NOTE =
  `Closed: the position fell below the ${DISCLOSURE_THRESHOLD} public disclosure threshold and is no longer published; ` +
  'it is not known to be covered.';
