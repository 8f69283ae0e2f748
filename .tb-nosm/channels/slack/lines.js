import { NAME_MAX } from "../format.js";
import { escapeMrkdwn, shortenForEscaped } from "./escape.js";
const LOOK_EMOJI = {
  opened: ":new:",
  increased: ":arrow_up:",
  decreased: ":arrow_down:",
  closed: ":white_circle:",
  sequence: ":left_right_arrow:"
};
function displayName(raw) {
  return escapeMrkdwn(shortenForEscaped(raw, NAME_MAX));
}
const SLACK_MARKUP = {
  escape: escapeMrkdwn,
  bold: (escaped) => `*${escaped}*`,
  name: displayName,
  shortName: (raw) => shortenForEscaped(raw, NAME_MAX),
  emoji: LOOK_EMOJI
};
export {
  LOOK_EMOJI,
  SLACK_MARKUP,
  displayName
};
