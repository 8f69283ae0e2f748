import type { StoryLine } from '../event-story.js';
import { NAME_MAX } from '../format.js';
import type { ChatMarkup } from '../story-draft.js';
import { escapeTeamsInline, shortenText, teamsName } from './escape.js';

/** One emoji per look, as Slack's codes (`:new:`…) in Unicode; `closed` is neutral, as in Slack. */
export const LOOK_EMOJI: Record<StoryLine['look'], string> = {
  opened: '🆕',
  increased: '⬆️',
  decreased: '⬇️',
  closed: '⚪',
  sequence: '↔️',
};

/** Teams' Markdown subset for the shared story drafts: their text never starts a TextBlock's line. */
export const TEAMS_MARKUP: ChatMarkup = {
  escape: escapeTeamsInline,
  bold: (escaped) => `**${escaped}**`,
  name: teamsName,
  shortName: (raw) => shortenText(raw, NAME_MAX),
  emoji: LOOK_EMOJI,
};
