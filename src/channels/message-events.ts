import type { PositionEvent } from '../positions/types.js';
import type { IssuerRef, Message } from './types.js';

/** The events a message carries, in its order (none for a notice or a test). */
export function messageEvents(message: Message): PositionEvent[] {
  switch (message.type) {
    case 'events':
    case 'digest':
      return message.events;
    case 'batch':
      return message.groups.flatMap((group) => group.events);
    default:
      return [];
  }
}

/** The issuers a message is about, each once, in its order. */
export function messageIssuers(message: Message): IssuerRef[] {
  const seen = new Map<string, IssuerRef>();
  if (message.type === 'events') seen.set(message.issuer.id, message.issuer);
  for (const event of messageEvents(message))
    if (!seen.has(event.issuer.id)) seen.set(event.issuer.id, event.issuer);
  return [...seen.values()];
}
