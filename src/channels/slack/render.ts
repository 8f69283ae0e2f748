import { chatDraft } from '../story-draft.js';
import { formatInstant } from '../time.js';
import type { Message, NoticeMessage, TestMessage } from '../types.js';
import type { SlackPayload } from './blocks.js';
import { escapeMrkdwn } from './escape.js';
import { displayName, SLACK_MARKUP } from './lines.js';
import { type Draft, packDraft } from './pack.js';

/** Options of {@link renderSlack}. */
export interface SlackRenderOptions {
  /** From config only (e.g. `<!here>`); put unescaped at the start of the first payload. */
  mention?: string;
  /** IANA zone for instants that carry none (the test message's time); UTC when unset. */
  timezone?: string;
}

const SEVERITY: Record<NoticeMessage['severity'], { emoji: string; word: string }> = {
  info: { emoji: ':information_source:', word: 'Info' },
  warning: { emoji: ':warning:', word: 'Warning' },
  critical: { emoji: ':rotating_light:', word: 'Critical' },
  resolved: { emoji: ':white_check_mark:', word: 'Resolved' },
};

function noticeDraft(message: NoticeMessage): Omit<Draft, 'mention'> {
  const { emoji, word } = SEVERITY[message.severity];
  const text = escapeMrkdwn(message.text);
  return {
    header: `${emoji} ${message.title}`,
    headline: `${word}: ${displayName(message.title)}`,
    entries: text ? [{ line: text, sentence: text }] : [],
  };
}

const TEST_MARK = 'shortwatch test message — not a real alert';

function testDraft(message: TestMessage, timezone: string): Omit<Draft, 'mention'> {
  const channel = escapeMrkdwn(message.channel);
  const sent = `${formatInstant(message.sentAt, timezone, { year: true })} (${escapeMrkdwn(timezone)})`;
  return {
    header: `:test_tube: ${TEST_MARK}`,
    headline: TEST_MARK,
    entries: [
      {
        line: `Sent to channel *${channel}* at ${sent}. No short position changed; nothing needs doing.`,
        sentence: `Sent to channel ${channel} at ${sent}. No short position changed; nothing needs doing.`,
      },
    ],
  };
}

// The fallback text names the issuers up to this length: a notification preview shows far less anyway.
const NAMES_MAX = 500;

const SLACK_CHAT = {
  markup: SLACK_MARKUP,
  namesMax: NAMES_MAX,
  own: { notice: noticeDraft, test: testDraft },
};

function draftOf(message: Message, timezone: string): Omit<Draft, 'mention'> | undefined {
  return chatDraft(message, timezone, SLACK_CHAT);
}

/**
 * Renders a message as one or more incoming-webhook payloads, in sending order, each within Slack's
 * limits; every upstream string is made displayable (the story document does it first) and escaped. An events or
 * batch message with no events renders as none.
 */
export function renderSlack(message: Message, options: SlackRenderOptions = {}): SlackPayload[] {
  const draft = draftOf(message, options.timezone ?? 'UTC');
  if (!draft) return [];
  return packDraft(options.mention ? { ...draft, mention: options.mention } : draft);
}
