import { DISCLOSURE_THRESHOLD } from '../../positions/threshold-story.js';
import type { PositionEvent } from '../../positions/types.js';
import {
  aggregateHeadline,
  FELL_BELOW,
  type StoryLine,
  storyLines,
  storyOf,
  storySentence,
  thresholdList,
} from '../event-story.js';
import { formatDelta, formatPercent, KIND_VERB } from '../format.js';
import { EMPTY_CELL, type EventColumn, escapeHtml } from './html.js';
import { clipChars, MAX_SUBJECT_NAME_CHARS, oneLine } from './text.js';

/** The public disclosure threshold below which positions are no longer published, as shown. */
const THRESHOLD = `${DISCLOSURE_THRESHOLD}%`;

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

/** One line that says what happened, for the title: who did what, to which value. */
export function eventHeadline(event: PositionEvent): string {
  const { holder, issuer } = event;
  const [line] = storyLines([event]);
  // An aggregate's headline names the aggregate with its threshold, never a holder's move.
  if (event.aggregate && line) return aggregateHeadline(line, issuer.name);
  switch (line?.story) {
    case 'fell-below':
      return `${holder}'s short in ${issuer.name} ${line.what}`;
    case 'back-above':
      return `${holder} is ${line.what} in ${issuer.name} (${formatPercent(event.current?.value ?? 0)})`;
    case 'below-confirmed': {
      const story = storyOf(event);
      const on = story?.kind === 'below-confirmed' ? story.fellBelowOn : '?';
      return `${holder}'s short in ${issuer.name} is no longer listed, as it ${FELL_BELOW} on ${on}`;
    }
    case undefined:
      break;
  }
  switch (event.kind) {
    case 'opened':
      return `${holder} opened a ${formatPercent(event.current?.value ?? 0)} short in ${issuer.name}`;
    case 'increased':
    case 'decreased':
      return `${holder} ${KIND_VERB[event.kind]} its short in ${issuer.name} to ${formatPercent(event.current?.value ?? 0)} (${formatDelta(event.delta)})`;
    case 'closed':
      return `${holder}'s short in ${issuer.name} ${FELL_BELOW}`;
  }
}

/** The plain-text lines of one holder: the facts of its row as a sentence, then the thresholds it crossed. */
export function storyTextLines(line: StoryLine): string[] {
  const lines = [`* ${storySentence(line)}`];
  if (line.crossed.length > 0) lines.push(`  Thresholds crossed: ${thresholdList(line.crossed)}`);
  return lines;
}

/** The escaped HTML cells of one holder's row, in the order of {@link EVENT_COLUMNS}. */
export function storyRow(line: StoryLine): string[] {
  const [holder = '', what = '', delta = '', date = '', crossed = ''] = [
    line.holder,
    line.what,
    line.delta ?? EMPTY_CELL,
    line.seen ? `${line.date ?? EMPTY_CELL}, first seen ${line.seen}` : (line.date ?? EMPTY_CELL),
    line.crossed.length > 0 ? thresholdList(line.crossed) : EMPTY_CELL,
  ].map(escapeHtml);
  return [holder, what, valuesHtml(line.values), delta, date, crossed];
}

// Up to this many values a sequence stays on one line, as any old → new does (four fit a phone's 375 px).
const ONE_LINE_STEPS = 4;

/**
 * Old → new never wraps inside a value; a longer sequence may wrap between its steps, each step kept
 * whole with its arrow, so six values fit a phone's width without a side scroll.
 */
function valuesHtml(values: string): string {
  const steps = values.split(' → ').map(escapeHtml);
  if (steps.length <= ONE_LINE_STEPS) return escapeHtml(values);
  const [first = '', ...rest] = steps;
  const kept = (text: string) => `<span style="white-space:nowrap">${text}</span>`;
  return `<span style="white-space:normal">${[kept(first), ...rest.map((step) => kept(`→ ${step}`))].join(' ')}</span>`;
}

/** True when a note on what "below 0.5%" means belongs under the message. */
export function needsBelowNote(lines: readonly StoryLine[]): boolean {
  return lines.some(
    (line) => line.story === 'fell-below' || line.look === 'closed' || line.look === 'sequence',
  );
}

/** Why "below 0.5%" is not "covered": said once under any message that tells a fall below. */
export const CLOSED_NOTE =
  `Below ${THRESHOLD}: a position under the ${THRESHOLD} public disclosure threshold is no longer published; ` +
  'it is not known to be covered.';

/** The end of a plain-text e-mail: the closed note when a line needs it, then the signature line and footer. */
export function textEnding(hasClosed: boolean, footer: string): string[] {
  return [...(hasClosed ? ['', CLOSED_NOTE] : []), '', '--', footer, ''];
}
