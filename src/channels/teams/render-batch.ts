import { batchStoryDraft } from '../story-draft.js';
import type { BatchMessage } from '../types.js';
import { TEAMS_MARKUP } from './lines.js';
import type { Draft } from './pack.js';

// A card has no notification text to fill: the names only head the draft, as in Slack.
const NAMES_MAX = 500;

/** Several issuers' events coalesced from a backlog: a heading per issuer; nothing when none has events. */
export function batchDraft(message: BatchMessage): Draft | undefined {
  return batchStoryDraft(message, TEAMS_MARKUP, NAMES_MAX);
}
