import type { EventsMessage } from '../types.js';
import { displayName, eventLine, eventSentence, totalChange } from './lines.js';
import type { Draft, Entry } from './pack.js';

/** `1 short position change`, `3 short position changes`. */
export function changeCount(count: number): string {
  return `${count} short position ${count === 1 ? 'change' : 'changes'}`;
}

/** One issuer's events from one poll: header, the full name, one line per event, the issuer total. */
export function eventsDraft(message: EventsMessage): Omit<Draft, 'mention'> | undefined {
  const { issuer, events } = message;
  const first = events[0];
  if (!first) return undefined;
  const name = displayName(issuer.name);
  const count = changeCount(events.length);
  const intro: Entry = { line: `*${name}* (${displayName(issuer.id)}) · ${count}` };
  return {
    header: issuer.name || issuer.id,
    headline: `${name}: ${count}`,
    entries: [intro, ...events.map((event) => ({ line: eventLine(event), sentence: eventSentence(event) }))],
    // Every event of one poll carries the same totals.
    context: `Issuer total disclosed short: ${totalChange(first.issuerTotal)}`,
  };
}
