import { lateFiling } from '../positions/late-filing.js';
import { round4 } from '../positions/round.js';
import { seenLateByDays } from '../positions/seen-late.js';
import { crossesThreshold, DISCLOSURE_THRESHOLD, isAbove } from '../positions/threshold-story.js';
import type {
  AggregateFacts,
  Disclosure,
  EventKind,
  PositionEvent,
  ThresholdStory,
} from '../positions/types.js';
import { formatDelta, formatPercent, KIND_VERB } from './format.js';
import { formatInstant } from './time.js';

/**
 * The facts every channel states for one holder in one message, in the order a trader reads them: who,
 * what happened, from → to with the change in percentage points, and the disclosure date. Several
 * changes of one holder in one message (a flap, or a backlog) are one line with the sequence.
 * Shared by Slack, e-mail and Teams so that they can only differ in layout, never in the facts.
 */
export interface StoryLine {
  holder: string;
  /**
   * What the line looks like at a glance (Slack's emoji, a card's colour): the event's kind, so that an
   * emoji always means the same change in the register, or `sequence` for several changes.
   */
  look: EventKind | 'sequence';
  /** The threshold story of a single event's line, for renderers that add a note. */
  story?: ThresholdStory['kind'];
  /** `raised`, `fell below the 0.5% disclosure threshold (0.47%), no longer public`, `3 changes`. */
  what: string;
  /** True when `what` is a phrase rather than one verb: a separator follows it (`: ` or ` · `). */
  phrase: boolean;
  /** `1.11% → 1.23%`, `0.62%` (an opening), `0.52% → 0.47% → 0.51%` (a sequence). */
  values: string;
  /** `+0.12 pp`; absent where the change is not known (a close whose last disclosure is unknown). */
  delta?: string;
  /** Disclosure date of the last value shown, when known. */
  date?: string;
  /**
   * When shortwatch first saw the change (`12 Jan 2026 07:05 UTC`), only where that was more than a day
   * after its date: every layout then says "disclosed for D, first seen T" (issue 34).
   */
  seen?: string;
  /** Thresholds crossed, ascending, over the whole line. */
  crossed: number[];
  events: PositionEvent[];
}

const THRESHOLD = `${DISCLOSURE_THRESHOLD}%`;

/** `fell below the 0.5% disclosure threshold`: the words every channel uses for a fall below. */
export const FELL_BELOW = `fell below the ${THRESHOLD} disclosure threshold`;

/**
 * The event's story against the threshold: the one the poll told, or for an event stored before stories
 * were told, what its values alone say (a return cannot be told from values: it reads as an opening).
 */
export function storyOf(event: PositionEvent): ThresholdStory | undefined {
  // An aggregate is a sum, not a position: the 0.5% disclosure threshold says nothing of it.
  if (event.aggregate) return undefined;
  if (event.story) return event.story;
  if (isAbove(event.previous) && !isAbove(event.current)) return { kind: 'fell-below' };
  if (event.kind === 'closed') return { kind: 'below-confirmed', fellBelowOn: event.previous?.date ?? '?' };
  return undefined;
}

/** Where a position stands after the event: its value, or for one that left the list its last disclosure. */
function listedAfter(event: PositionEvent): Disclosure | null {
  if (event.current) return event.current;
  // A close's `final` is a disclosure under the threshold (the one that ended it), when it could be fetched.
  return event.final && event.final.value < DISCLOSURE_THRESHOLD ? event.final : null;
}

function days(count: number): string {
  return `${count} ${count === 1 ? 'day' : 'days'}`;
}

/**
 * The line of one event on its own. A late filing says so, with both dates; an event first seen more
 * than a day after the date it is disclosed (or reported) for says when shortwatch first saw it.
 */
function singleLine(event: PositionEvent): StoryLine {
  const line = storyLine(event);
  const late = lateFiling(event.current);
  const dated = late?.reportedOn ?? line.date;
  const seen =
    dated !== undefined && seenLateByDays(dated, event.detectedAt) !== undefined
      ? `${formatInstant(event.detectedAt, 'UTC', { year: true })} UTC`
      : undefined;
  const withSeen = seen === undefined ? line : { ...line, seen };
  if (late === undefined) return withSeen;
  return {
    ...withSeen,
    what: `${line.what}, filed late (position of ${late.date} reported ${late.reportedOn}, ${days(late.days)} later)`,
    phrase: true,
  };
}

/** The line of one event: its threshold story's when it has one, else the plain change. */
function storyLine(event: PositionEvent): StoryLine {
  if (event.aggregate) return aggregateLine(event, event.aggregate);
  const story = storyOf(event);
  const base = { holder: event.holder, crossed: event.thresholdsCrossed, events: [event] };
  switch (story?.kind) {
    case 'fell-below':
      return { ...base, look: event.kind, story: story.kind, phrase: true, ...fellBelowLine(event) };
    case 'below-confirmed':
      return {
        ...base,
        look: event.kind,
        story: story.kind,
        what: `confirmed: no longer listed, as it ${FELL_BELOW} on ${story.fellBelowOn}`,
        phrase: true,
        values: `${formatPercent(event.previous?.value ?? 0)} → ${stop(event)}`,
      };
    case 'back-above':
      return {
        ...base,
        look: event.kind,
        story: story.kind,
        what: `back above ${THRESHOLD} after ${days(story.daysBelow)}`,
        phrase: true,
        ...currentValues(event),
      };
    case undefined:
      break;
  }
  if (!event.previous)
    return { ...base, look: 'opened', what: KIND_VERB.opened, phrase: false, ...currentValues(event) };
  return { ...base, look: event.kind, what: KIND_VERB[event.kind], phrase: false, ...currentValues(event) };
}

/** The values of a change from one disclosure to another. */
function change(from: Disclosure, to: Disclosure): { values: string; delta: string; date: string } {
  return {
    values: `${formatPercent(from.value)} → ${formatPercent(to.value)}`,
    delta: formatDelta(to.value - from.value),
    date: to.date,
  };
}

/** The values of an event that ends listed: a change from its previous value, or its first value. */
function currentValues(event: PositionEvent): { values: string; delta: string; date: string } {
  const current = event.current ?? { value: 0, date: '?' };
  if (event.previous) return change(event.previous, current);
  return { values: formatPercent(current.value), delta: formatDelta(event.delta), date: current.date };
}

/** What a fall below the threshold says, and its values. */
function fellBelowLine(event: PositionEvent): {
  what: string;
  values: string;
  delta?: string;
  date?: string;
} {
  const after = listedAfter(event);
  const what = after
    ? `${FELL_BELOW} (${formatPercent(after.value)}), no longer public`
    : `${FELL_BELOW}, no longer public`;
  const from = event.previous ?? { value: 0, date: '?' };
  // Still listed (a cut under the threshold) reads as a value; gone from the list says so.
  if (event.current) return { what, ...change(from, event.current) };
  if (!after) return { what, values: `${formatPercent(from.value)} → ${stop(event)}` };
  return {
    what,
    values: `${formatPercent(from.value)} → ${stop(event)}`,
    delta: formatDelta(after.value - from.value),
    date: after.date,
  };
}

/**
 * The line of an issuer-aggregate or scope event: its "holder" names the aggregate with the threshold
 * it counts from (`Aggregate of positions from 0.1%`), so that no line compares a 0.1% sum with a 0.5% one.
 */
function aggregateLine(event: PositionEvent, facts: AggregateFacts): StoryLine {
  const base = { holder: event.holder, look: event.kind, crossed: event.thresholdsCrossed, events: [event] };
  const from = event.previous ?? { value: 0, date: '?' };
  const to = event.current ?? { value: 0, date: '?' };
  const change = {
    values: `${formatPercent(from.value)} → ${formatPercent(to.value)}`,
    delta: formatDelta(to.value - from.value),
    date: to.date,
  };
  switch (facts.kind) {
    case 'aggregate-entered':
      return { ...base, what: 'published', phrase: false, values: formatPercent(to.value), date: to.date };
    case 'aggregate-ended':
      return {
        ...base,
        what: 'no longer published',
        phrase: true,
        values: `${formatPercent(from.value)} → under ${formatPercent(facts.thresholdPercent ?? 0)}`,
        date: from.date,
      };
    case 'aggregate-changed':
    case 'aggregate-crossed':
      return { ...base, what: KIND_VERB[event.kind], phrase: false, ...change };
    case 'aggregate-revised':
      return { ...base, what: 'revised', phrase: false, ...change };
    case 'below-threshold-moved':
      return { ...base, what: 'moved', phrase: false, ...change };
    case 'named-holders-ended': {
      const count = facts.namedHolders ?? 0;
      return {
        ...base,
        // A register's event names its source; the API's (no source) is the upstream, not a register.
        what: `no longer published by the ${event.source === undefined ? 'upstream' : 'register'}: a change of what it publishes, not ${count} closed ${count === 1 ? 'position' : 'positions'}`,
        phrase: true,
        values: `last named sum ${formatPercent(from.value)}`,
        date: to.date,
      };
    }
    case 'scope-added':
      return { ...base, what: 'added the share', phrase: false, values: '(now in scope)', date: to.date };
    case 'scope-removed':
      return {
        ...base,
        what: 'removed the share',
        phrase: false,
        values: '(no longer in scope)',
        date: to.date,
      };
  }
}

/**
 * One aggregate or scope line as a headline about `issuer`: `ABRDN PLC added to the Reportable Shares
 * List`, `Aggregate of positions from 0.2% raised in ABRDN PLC: 6.12% → 6.45%`.
 */
export function aggregateHeadline(line: StoryLine, issuer: string): string {
  const facts = line.events.at(-1)?.aggregate;
  if (facts?.kind === 'scope-added') return `${issuer} added to the ${line.holder}`;
  if (facts?.kind === 'scope-removed') return `${issuer} removed from the ${line.holder}`;
  return `${line.holder} ${line.what} in ${issuer}: ${line.values}`;
}

/** Where a step of a sequence leaves the position: `0.52%`, `off the list at 0.48%` or `off the list`. */
function stop(event: PositionEvent): string {
  if (event.current) return formatPercent(event.current.value);
  const after = listedAfter(event);
  // A last disclosure at the value already shown adds nothing: say each value once.
  const repeats =
    after !== null && event.previous !== null && round4(after.value) === round4(event.previous.value);
  return after && !repeats ? `off the list at ${formatPercent(after.value)}` : 'off the list';
}

/**
 * The stops of a sequence, from the value before its first event. An opening that follows a listed value
 * gets `off the list` before it: the close between is not in the message (routing skips a close a people
 * channel was told as the fall below 0.5%), and without that stop the new disclosure would read as a rise.
 */
function sequenceStops(events: readonly PositionEvent[]): string[] {
  const before = events[0]?.previous ?? null;
  const stops = [before ? formatPercent(before.value) : 'not listed'];
  let listed = before !== null;
  for (const event of events) {
    if (event.previous === null && listed) stops.push('off the list');
    stops.push(stop(event));
    listed = event.current !== null;
  }
  return stops;
}

/** Several changes of one holder, oldest first: one line with the sequence of values. */
function sequenceLine(events: readonly PositionEvent[]): StoryLine {
  const first = events[0];
  const last = events.at(-1);
  if (!first || !last) throw new Error('a sequence needs events');
  const crossings = events.filter(crossesThreshold).length;
  const end = listedAfter(last);
  const what =
    crossings < 2
      ? `${events.length} changes`
      : crossings === events.length
        ? `crossed ${THRESHOLD} ${crossings} times`
        : `${events.length} changes, ${crossings} across ${THRESHOLD}`;
  const from = first.previous;
  const crossed = [...new Set(events.flatMap((event) => event.thresholdsCrossed))].sort((a, b) => a - b);
  return {
    holder: last.holder,
    look: 'sequence',
    what,
    phrase: true,
    values: sequenceStops(events).join(' → '),
    // From not listed, the change is the whole value now listed, as the issuer total counts it.
    ...(end ? { delta: formatDelta(round4(end.value - (from?.value ?? 0))) } : {}),
    ...(end ? { date: end.date } : {}),
    crossed,
    events: [...events],
  };
}

/**
 * One line per holder (per source: two registers' values of one holder are not a sequence), in order of
 * each holder's first event; a holder with several events in the message gets one line with the
 * sequence, its events oldest first.
 */
export function storyLines(events: readonly PositionEvent[]): StoryLine[] {
  const byHolder = new Map<string, PositionEvent[]>();
  for (const event of events) {
    const key = `${event.source ?? ''}\u0000${event.issuer.id}\u0000${event.holderKey}`;
    const list = byHolder.get(key);
    if (list) list.push(event);
    else byHolder.set(key, [event]);
  }
  return [...byHolder.values()].map((list) => {
    const [only] = list;
    if (list.length === 1 && only) return singleLine(only);
    return sequenceLine([...list].sort((a, b) => a.detectedAt.localeCompare(b.detectedAt)));
  });
}

/** `1%, 2%`: thresholds as every channel lists them. */
export function thresholdList(thresholds: readonly number[]): string {
  return thresholds.map((t) => `${round4(t)}%`).join(', ');
}

/** `crossed 1%, 2%`, or undefined when the line crossed no configured threshold. */
export function crossedText(line: StoryLine): string | undefined {
  if (line.crossed.length === 0) return undefined;
  return `crossed ${thresholdList(line.crossed)}`;
}

/**
 * The line as one plain sentence: `Marshall Wace raised 1.11% → 1.23% (+0.12 pp) on 2024-11-20`,
 * `X fell below the 0.5% disclosure threshold (0.47%), no longer public: 0.56% → 0.47% (-0.09 pp) on …`.
 */
export function storySentence(line: StoryLine): string {
  const delta = line.delta ? ` (${line.delta})` : '';
  return `${line.holder} ${line.what}${line.phrase ? ':' : ''} ${line.values}${delta}${dateClause(line, ' on ')}`;
}

/**
 * The line's date after `lead` (` on `, ` · `); when shortwatch saw it late, both, whatever `withDate`:
 * ` · disclosed for 2026-01-09, first seen 12 Jan 2026 07:05 UTC`. With `withDate` false and nothing seen
 * late the date is left to a section's context line.
 */
export function dateClause(line: StoryLine, lead: string, withDate = true): string {
  if (line.seen !== undefined)
    return ` · ${line.date ? `disclosed for ${line.date}, ` : ''}first seen ${line.seen}`;
  return withDate && line.date ? `${lead}${line.date}` : '';
}

/** The changes a channel's filters or mutes kept out of the message: one record per poll, summed. */
function hiddenByFilters(events: readonly PositionEvent[]): { count: number; delta: number } {
  const perPoll = new Map<string, { count: number; delta: number }>();
  for (const event of events) perPoll.set(event.detectedAt, event.hidden ?? { count: 0, delta: 0 });
  let count = 0;
  let delta = 0;
  for (const hidden of perPoll.values()) {
    count += hidden.count;
    delta += hidden.delta;
  }
  return { count, delta: round4(delta) };
}

/**
 * The issuer's total over the message's events, before → after of what is listed, and what of its move
 * the message does not show: `1.20% → 1.65% (+0.45 pp, of which +0.19 pp in 2 changes not shown here)`
 * where a filter or mute hid changes, `… of which -0.10 pp told earlier` where changes between the
 * message's polls went out in an earlier message. The untold part is the total's move less the events'
 * (exact whatever the grouping); the hidden part is what each poll's routing recorded.
 */
export function totalWithHidden(all: readonly PositionEvent[]): string | undefined {
  // Aggregates are not part of the named total: their lines carry their own values.
  const events = all.filter((event) => !event.aggregate);
  const byTime = [...events].sort((a, b) => a.detectedAt.localeCompare(b.detectedAt));
  const oldest = byTime[0];
  const newest = byTime.at(-1);
  if (!oldest || !newest) return undefined;
  const before = oldest.issuerTotal.before;
  const after = newest.issuerTotal.after;
  const moved = round4(after - before);
  const shown = round4(events.reduce((sum, event) => sum + event.delta, 0));
  const hidden = hiddenByFilters(events);
  const told = round4(moved - shown - hidden.delta);
  const parts: string[] = [];
  if (hidden.count > 0)
    parts.push(
      `${formatDelta(hidden.delta)} in ${hidden.count === 1 ? '1 change' : `${hidden.count} changes`} not shown here`,
    );
  if (told !== 0) parts.push(`${formatDelta(told)} told earlier`);
  const head = `${formatPercent(before)} → ${formatPercent(after)} (${formatDelta(moved)}`;
  return parts.length === 0 ? `${head})` : `${head}, of which ${parts.join(' and ')})`;
}

/**
 * The last listed value of a line whose position left the list, when the line's change cannot add up
 * to what the total lost: the line shows the move to the unlisted value (or none), the total drops the
 * whole listed value.
 */
function leftWith(line: StoryLine): number | undefined {
  const last = line.events.at(-1);
  if (!last || last.current || !last.previous || last.aggregate) return undefined;
  const end = listedAfter(last);
  const start = line.events[0]?.previous?.value ?? 0;
  const shown = end ? round4(end.value - start) : undefined;
  const counted = round4(line.events.reduce((sum, event) => sum + event.delta, 0));
  return shown === counted ? undefined : last.previous.value;
}

/**
 * Why the holder lines do not add up to the total, in words, or undefined when they do:
 * `The total counts listed positions only: Vireo's last listed 0.52% left the list with it.`
 */
export function totalNote(lines: readonly StoryLine[]): string | undefined {
  const left = lines.flatMap((line) => {
    const value = leftWith(line);
    return value === undefined ? [] : [`${line.holder}'s last listed ${formatPercent(value)}`];
  });
  if (left.length === 0) return undefined;
  const them = left.length === 1 ? 'it' : 'them';
  return `The total counts listed positions only: ${left.join(' and ')} left the list with ${them}.`;
}

/** The disclosure dates of the message's lines: `2026-01-09`, or `2026-01-08 to 2026-01-09`. */
export function disclosedOn(lines: readonly StoryLine[]): string | undefined {
  const dates = [...new Set(lines.flatMap((line) => (line.date ? [line.date] : [])))].sort();
  const first = dates[0];
  const last = dates.at(-1);
  if (!first || !last) return undefined;
  return first === last ? first : `${first} to ${last}`;
}

/**
 * What one message (and one digest section) tells: the events of one issuer from one source. Two
 * registers (or a register and the API) list one issuer with totals of their own, and may list one
 * change each: told together they would read as a sequence and a total that mix the two.
 */
export function issuerGroupKey(event: PositionEvent): string {
  return `${event.source ?? ''}\u0000${event.issuer.id}`;
}

/**
 * Which register the events were read from: `register afm`, `registers afm, fi`; undefined for events
 * of the upstream API alone (they carry no source).
 */
export function sourceNote(events: readonly PositionEvent[]): string | undefined {
  const sources = [...new Set(events.flatMap((event) => (event.source ? [event.source] : [])))].sort();
  if (sources.length === 0) return undefined;
  return `${sources.length === 1 ? 'register' : 'registers'} ${sources.join(', ')}`;
}
