import type { StoryLine } from '../event-story.js';
import { NAME_MAX } from '../format.js';
import type { ChatMarkup } from '../story-draft.js';
import { escapeMrkdwn, shortenForEscaped } from './escape.js';

/** One emoji per look, all distinct; `closed` is neutral because the position is not known to be covered. */
export const LOOK_EMOJI: Record<StoryLine['look'], string> = {
  opened: ':new:',
  increased: ':arrow_up:',
  decreased: ':arrow_down:',
  closed: ':white_circle:',
  sequence: ':left_right_arrow:',
};

/** An upstream name, escaped, and shortened only past {@link NAME_MAX} characters. */
export function displayName(raw: string): string {
  return escapeMrkdwn(shortenForEscaped(raw, NAME_MAX));
}

/** Slack's mrkdwn for the shared story drafts. */
export const SLACK_MARKUP: ChatMarkup = {
  escape: escapeMrkdwn,
  bold: (escaped) => `*${escaped}*`,
  name: displayName,
  shortName: (raw) => shortenForEscaped(raw, NAME_MAX),
  emoji: LOOK_EMOJI,
};
