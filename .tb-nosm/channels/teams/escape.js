import { wellFormed } from "../../text/well-formed.js";
import { clipText, NAME_MAX } from "../format.js";
const SPECIAL = /[\\*_~`[\]{}<>&]/g;
const LEADING_MARKER = /^(?:[-+#]|\d+(?=[.)]))/;
function escapeTeams(text) {
  return escapeTeamsInline(text).replace(
    LEADING_MARKER,
    (marker) => /^\d/.test(marker) ? `${marker}\\` : `\\${marker}`
  );
}
function escapeTeamsInline(text) {
  return wellFormed(text).replace(SPECIAL, (char) => `\\${char}`);
}
const shortenText = clipText;
function teamsName(raw) {
  return escapeTeamsInline(shortenText(raw, NAME_MAX));
}
export {
  escapeTeams,
  escapeTeamsInline,
  shortenText,
  teamsName
};
