import { eventsStoryDraft } from '../story-draft.js';
import type { EventsMessage } from '../types.js';
import { TEAMS_MARKUP } from './lines.js';
import type { Draft } from './pack.js';

/** One issuer's events: the issuer as title, one line per holder, the id, total and date below. */
export function eventsDraft(message: EventsMessage): Draft | undefined {
  return eventsStoryDraft(message, TEAMS_MARKUP);
}
