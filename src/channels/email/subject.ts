import { DISCLOSURE_THRESHOLD } from '../../positions/threshold-story.js';
import type { PositionEvent } from '../../positions/types.js';
import { aggregateHeadline, type StoryLine, storyLines, storyOf } from '../event-story.js';
import { formatDelta, formatPercent } from '../format.js';
import { clipChars, countChanges, MAX_SUBJECT_NAME_CHARS } from './text.js';

const THRESHOLD = `${DISCLOSURE_THRESHOLD}%`;

/** What one holder's line counts as in a subject's summary, in the order the summary lists them. */
const TALLY = [
  ['opened', 'opening', 'openings'],
  ['increased', 'rise', 'rises'],
  ['decreased', 'cut', 'cuts'],
  ['fell-below', `fall below ${THRESHOLD}`, `falls below ${THRESHOLD}`],
  ['back-above', `return above ${THRESHOLD}`, `returns above ${THRESHOLD}`],
  ['below-confirmed', 'close confirmed', 'closes confirmed'],
] as const;

type Tally = (typeof TALLY)[number][0];

function tallyOf(line: StoryLine): Tally | 'sequence' {
  if (line.story) return line.story;
  return line.look === 'closed' ? 'fell-below' : line.look;
}

/** `2 openings, 1 fall below 0.5%`, `1 cut, 1 holder with 3 changes`: each line counted once. */
export function linesSummary(lines: readonly StoryLine[]): string {
  const tallies = lines.map(tallyOf);
  const parts: string[] = TALLY.flatMap(([key, one, many]) => {
    const count = tallies.filter((t) => t === key).length;
    return count === 0 ? [] : [`${count} ${count === 1 ? one : many}`];
  });
  const sequences = lines.filter((line) => line.look === 'sequence');
  const [only] = sequences;
  if (sequences.length === 1 && only) parts.push(`1 holder with ${countChanges(only.events.length)}`);
  if (sequences.length > 1) parts.push(`${sequences.length} holders with several changes`);
  return parts.join(', ');
}

/** The subject of one holder's line: who did what to which issuer, to which value. */
function lineSubject(line: StoryLine, issuer: string): string {
  const event = line.events.at(-1);
  const now = formatPercent(event?.current?.value ?? 0);
  // An aggregate says what it is, with the threshold it counts from, and its own values.
  if (event?.aggregate) return aggregateHeadline(line, issuer);
  switch (tallyOf(line)) {
    case 'opened':
      return `${line.holder} opened ${now} in ${issuer}`;
    case 'increased':
      return `${line.holder} raised ${issuer} to ${now} (${formatDelta(event?.delta ?? 0)})`;
    case 'decreased':
      return `${line.holder} cut ${issuer} to ${now} (${formatDelta(event?.delta ?? 0)})`;
    case 'fell-below':
      return `${line.holder} fell below ${THRESHOLD} in ${issuer} (${line.values})`;
    case 'back-above':
      return `${line.holder} back above ${THRESHOLD} in ${issuer} at ${now}`;
    case 'below-confirmed': {
      const story = event ? storyOf(event) : undefined;
      const since = story?.kind === 'below-confirmed' ? ` since ${story.fellBelowOn}` : '';
      return `${line.holder} confirmed off the list in ${issuer} (below ${THRESHOLD}${since})`;
    }
    case 'sequence':
      return `${line.holder}: ${line.what} in ${issuer} (${line.values})`;
  }
}

/**
 * The subject of one issuer's events, saying what happened: `Marshall Wace cut ASML to 0.62% (-0.11 pp)`,
 * `3 changes in ASML: 2 openings, 1 fall below 0.5%`. The issuer is always named (inbox search and
 * rules); the thread itself rides on the References header (thread.ts), not on the subject.
 */
export function eventsSubject(issuerName: string, events: readonly PositionEvent[]): string {
  const issuer = clipChars(issuerName, MAX_SUBJECT_NAME_CHARS);
  const lines = storyLines(events).map((line) => ({
    ...line,
    holder: clipChars(line.holder, MAX_SUBJECT_NAME_CHARS),
  }));
  const [only] = lines;
  if (lines.length === 1 && only) return lineSubject(only, issuer);
  return `${countChanges(events.length)} in ${issuer}: ${linesSummary(lines)}`;
}
