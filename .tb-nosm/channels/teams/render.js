import { chatDraft } from "../story-draft.js";
import { formatInstant } from "../time.js";
import { escapeTeams } from "./escape.js";
import { TEAMS_MARKUP } from "./lines.js";
import { packDraft } from "./pack.js";
const SEVERITY = {
  info: "\u2139\uFE0F Info",
  warning: "\u26A0\uFE0F Warning",
  critical: "\u{1F6A8} Critical",
  resolved: "\u2705 Resolved"
};
function noticeDraft(message) {
  const lines = message.text.split("\n").filter((line) => line.length > 0);
  return {
    header: `${SEVERITY[message.severity]}: ${message.title}`,
    entries: lines.map((line) => ({ line: escapeTeams(line) }))
  };
}
const TEST_MARK = "shortwatch test message \u2014 not a real alert";
function testDraft(message, timezone) {
  const sent = `${formatInstant(message.sentAt, timezone, { year: true })} (${escapeTeams(timezone)})`;
  return {
    header: `\u{1F9EA} ${TEST_MARK}`,
    entries: [
      {
        line: `Sent to channel **${escapeTeams(message.channel)}** at ${sent}. No short position changed; nothing needs doing.`
      }
    ]
  };
}
const NAMES_MAX = 500;
const TEAMS_CHAT = {
  markup: TEAMS_MARKUP,
  namesMax: NAMES_MAX,
  own: { notice: noticeDraft, test: testDraft }
};
function draftOf(message, timezone) {
  return chatDraft(message, timezone, TEAMS_CHAT);
}
function renderTeamsParts(message, options = {}) {
  const draft = draftOf(message, options.timezone ?? "UTC");
  if (!draft) return [];
  return packDraft(draft, options);
}
function renderTeams(message, options = {}) {
  return renderTeamsParts(message, options).map((part) => part.payload);
}
export {
  renderTeams,
  renderTeamsParts
};
