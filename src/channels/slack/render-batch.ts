import { batchStoryDraft } from '../story-draft.js';
import type { BatchMessage } from '../types.js';
import { SLACK_MARKUP } from './lines.js';
import type { Draft } from './pack.js';

// The fallback text names the issuers up to this length: a notification preview shows far less anyway.
const NAMES_MAX = 500;

/** Several issuers' events: a section per issuer, events in the given order; nothing when none has events. */
export function batchDraft(message: BatchMessage): Omit<Draft, 'mention'> | undefined {
  return batchStoryDraft(message, SLACK_MARKUP, NAMES_MAX);
}
