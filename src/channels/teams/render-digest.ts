import { digestStoryDraft } from '../story-draft.js';
import type { DigestMessage } from '../types.js';
import { TEAMS_MARKUP } from './lines.js';
import type { Draft } from './pack.js';

/** A digest: the period and a count, the top movers when they add something, then a heading per issuer. */
export function digestDraft(message: DigestMessage): Draft {
  return digestStoryDraft(message, TEAMS_MARKUP);
}
