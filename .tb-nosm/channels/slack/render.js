import { chatDraft } from "../story-draft.js";
import { formatInstant } from "../time.js";
import { escapeMrkdwn } from "./escape.js";
import { displayName, SLACK_MARKUP } from "./lines.js";
import { packDraft } from "./pack.js";
const SEVERITY = {
  info: { emoji: ":information_source:", word: "Info" },
  warning: { emoji: ":warning:", word: "Warning" },
  critical: { emoji: ":rotating_light:", word: "Critical" },
  resolved: { emoji: ":white_check_mark:", word: "Resolved" }
};
function noticeDraft(message) {
  const { emoji, word } = SEVERITY[message.severity];
  const text = escapeMrkdwn(message.text);
  return {
    header: `${emoji} ${message.title}`,
    headline: `${word}: ${displayName(message.title)}`,
    entries: text ? [{ line: text, sentence: text }] : []
  };
}
const TEST_MARK = "shortwatch test message \u2014 not a real alert";
function testDraft(message, timezone) {
  const channel = escapeMrkdwn(message.channel);
  const sent = `${formatInstant(message.sentAt, timezone, { year: true })} (${escapeMrkdwn(timezone)})`;
  return {
    header: `:test_tube: ${TEST_MARK}`,
    headline: TEST_MARK,
    entries: [
      {
        line: `Sent to channel *${channel}* at ${sent}. No short position changed; nothing needs doing.`,
        sentence: `Sent to channel ${channel} at ${sent}. No short position changed; nothing needs doing.`
      }
    ]
  };
}
const NAMES_MAX = 500;
const SLACK_CHAT = {
  markup: SLACK_MARKUP,
  namesMax: NAMES_MAX,
  own: { notice: noticeDraft, test: testDraft }
};
function draftOf(message, timezone) {
  return chatDraft(message, timezone, SLACK_CHAT);
}
function renderSlack(message, options = {}) {
  const draft = draftOf(message, options.timezone ?? "UTC");
  if (!draft) return [];
  return packDraft(options.mention ? { ...draft, mention: options.mention } : draft);
}
export {
  renderSlack
};
