import { issuerTotals } from '../format.js';
import type { BatchMessage, IssuerEvents } from '../types.js';
import { escapeMrkdwn, shortenForEscaped } from './escape.js';
import { displayName, eventLine, totalChange } from './lines.js';
import type { Draft, Entry } from './pack.js';
import { changeCount } from './render-events.js';

// The fallback text names the issuers up to this length: a notification preview shows far less anyway.
const NAMES_MAX = 500;

/** `1 issuer`, `3 issuers`. */
function issuerCount(count: number): string {
  return `${count} ${count === 1 ? 'issuer' : 'issuers'}`;
}

/** One issuer's entries: a heading with name, id and total opens its section; one line per event. */
function groupEntries(group: IssuerEvents, index: number): Entry[] {
  const total = issuerTotals(group.events);
  if (!total) return [];
  const { name, id } = group.issuer;
  const heading = `*${displayName(name)}* (${displayName(id)}) · total ${totalChange(total)}`;
  // The index keeps two groups of one issuer apart, should a caller ever pass them.
  const key = `${index}:${id}`;
  // The heading names the issuer, so each line names only the holder.
  return group.events.map((event) => ({ group: { key, heading }, line: eventLine(event) }));
}

/** `Acme plc, Bolt AG, …`: the issuers' names, escaped and cut to {@link NAMES_MAX}. */
function issuerNames(groups: readonly IssuerEvents[]): string {
  const names = groups.map((group) => group.issuer.name || group.issuer.id).join(', ');
  return escapeMrkdwn(shortenForEscaped(names, NAMES_MAX));
}

/** Several issuers' events: a section per issuer, events in the given order; nothing when none has events. */
export function batchDraft(message: BatchMessage): Omit<Draft, 'mention'> | undefined {
  const groups = message.groups.filter((group) => group.events.length > 0);
  if (groups.length === 0) return undefined;
  const changes = groups.reduce((sum, group) => sum + group.events.length, 0);
  const issuers = issuerCount(groups.length);
  return {
    header: `Short position changes in ${issuers}`,
    // A summary, not one sentence per event: those would fill the 3,000-character text long before the
    // blocks are full, and a batch exists to carry as much as one message can.
    headline: `${changeCount(changes)} in ${issuers}: ${issuerNames(groups)}`,
    entries: groups.flatMap(groupEntries),
  };
}
