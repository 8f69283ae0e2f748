import { chatDraft } from '../story-draft.js';
import { formatInstant } from '../time.js';
import type { Message, NoticeMessage, TestMessage } from '../types.js';
import type { TeamsPayload } from './card.js';
import { escapeTeams } from './escape.js';
import { TEAMS_MARKUP } from './lines.js';
import { type Draft, type PackOptions, packDraft, type TeamsPart } from './pack.js';

/** Options of {@link renderTeams}. */
export interface TeamsRenderOptions extends PackOptions {
  /** IANA zone for instants that carry none (the test message's time); UTC when unset. */
  timezone?: string;
}

const SEVERITY: Record<NoticeMessage['severity'], string> = {
  info: 'ℹ️ Info',
  warning: '⚠️ Warning',
  critical: '🚨 Critical',
  resolved: '✅ Resolved',
};

/** A notice: severity and title as the heading, one entry per line of its text (shortwatch's own breaks). */
function noticeDraft(message: NoticeMessage): Draft {
  const lines = message.text.split('\n').filter((line) => line.length > 0);
  return {
    header: `${SEVERITY[message.severity]}: ${message.title}`,
    entries: lines.map((line) => ({ line: escapeTeams(line) })),
  };
}

const TEST_MARK = 'shortwatch test message — not a real alert';

function testDraft(message: TestMessage, timezone: string): Draft {
  const sent = `${formatInstant(message.sentAt, timezone, { year: true })} (${escapeTeams(timezone)})`;
  return {
    header: `🧪 ${TEST_MARK}`,
    entries: [
      {
        line: `Sent to channel **${escapeTeams(message.channel)}** at ${sent}. No short position changed; nothing needs doing.`,
      },
    ],
  };
}

// The fallback text names the issuers up to this length: a notification preview shows far less anyway.
const NAMES_MAX = 500;

const TEAMS_CHAT = {
  markup: TEAMS_MARKUP,
  namesMax: NAMES_MAX,
  own: { notice: noticeDraft, test: testDraft },
};

function draftOf(message: Message, timezone: string): Draft | undefined {
  return chatDraft(message, timezone, TEAMS_CHAT);
}

/**
 * Renders a message as one or more cards in sending order, each within {@link TEAMS_MAX_BYTES}, every
 * event once; every upstream string is made displayable (the story document does it first) and escaped. An events
 * or batch message with no events renders as none.
 */
export function renderTeamsParts(message: Message, options: TeamsRenderOptions = {}): TeamsPart[] {
  const draft = draftOf(message, options.timezone ?? 'UTC');
  if (!draft) return [];
  return packDraft(draft, options);
}

/** The request bodies of {@link renderTeamsParts}. */
export function renderTeams(message: Message, options: TeamsRenderOptions = {}): TeamsPayload[] {
  return renderTeamsParts(message, options).map((part) => part.payload);
}
