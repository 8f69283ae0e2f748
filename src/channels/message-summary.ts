import { displayText } from './format.js';
import type { Message } from './types.js';

/** One line saying what a queued message holds, for lists of deliveries (the CLI's and the console's). */
export function summarise(message: Message): string {
  switch (message.type) {
    case 'events':
      return `${message.events.length} events in ${displayText(message.issuer.name)}`;
    case 'batch':
      return `${message.groups.reduce((n, g) => n + g.events.length, 0)} events in ${message.groups.length} issuers`;
    case 'digest':
      return `digest of ${message.events.length} events`;
    default:
      return message.type;
  }
}
