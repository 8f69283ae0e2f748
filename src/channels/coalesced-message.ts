import type { BatchMessage, EventsMessage, IssuerEvents } from './types.js';

/**
 * The message that carries these groups: a lone issuer goes out as today's events message, so that a
 * quiet channel's alerts look the same as before batching; two or more go out as one batch.
 */
export function messageForGroups(groups: readonly IssuerEvents[]): EventsMessage | BatchMessage {
  const [only] = groups;
  if (groups.length === 1 && only) return { type: 'events', issuer: only.issuer, events: only.events };
  return { type: 'batch', groups: [...groups] };
}
