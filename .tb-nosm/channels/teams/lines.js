import { NAME_MAX } from "../format.js";
import { escapeTeamsInline, shortenText, teamsName } from "./escape.js";
const LOOK_EMOJI = {
  opened: "\u{1F195}",
  increased: "\u2B06\uFE0F",
  decreased: "\u2B07\uFE0F",
  closed: "\u26AA",
  sequence: "\u2194\uFE0F"
};
const TEAMS_MARKUP = {
  escape: escapeTeamsInline,
  bold: (escaped) => `**${escaped}**`,
  name: teamsName,
  shortName: (raw) => shortenText(raw, NAME_MAX),
  emoji: LOOK_EMOJI
};
export {
  LOOK_EMOJI,
  TEAMS_MARKUP
};
