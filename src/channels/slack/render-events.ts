import { eventsStoryDraft } from '../story-draft.js';
import type { EventsMessage } from '../types.js';
import { SLACK_MARKUP } from './lines.js';
import type { Draft } from './pack.js';

/** One issuer's events: the issuer once (the header), one line per holder, then the context line. */
export function eventsDraft(message: EventsMessage): Omit<Draft, 'mention'> | undefined {
  return eventsStoryDraft(message, SLACK_MARKUP);
}
