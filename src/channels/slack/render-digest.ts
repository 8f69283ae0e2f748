import { digestStoryDraft } from '../story-draft.js';
import type { DigestMessage } from '../types.js';
import { SLACK_MARKUP } from './lines.js';
import type { Draft } from './pack.js';

/** A digest: the period and a count, the top movers when they add something, then a section per issuer. */
export function digestDraft(message: DigestMessage): Omit<Draft, 'mention'> {
  return digestStoryDraft(message, SLACK_MARKUP);
}
