/** A paragraph of an Adaptive Card; its text is rendered as a Markdown subset (escape data with escapeTeams). */
export interface TextBlock {
  type: 'TextBlock';
  text: string;
  wrap: true;
  size?: 'Small' | 'Large';
  weight?: 'Bolder';
  isSubtle?: true;
  spacing?: 'Small' | 'Medium';
  /** A line above the block: between issuers, and above the card's closing lines. */
  separator?: true;
}

/** The card itself: only TextBlocks, so that every client version renders it the same. */
export interface AdaptiveCard {
  $schema: 'http://adaptivecards.io/schemas/adaptive-card.json';
  type: 'AdaptiveCard';
  version: '1.4';
  /** Teams draws cards narrow unless told otherwise; event lines read better on one line. */
  msteams: { width: 'Full' };
  body: TextBlock[];
}

/** The body a Workflows webhook ("Post to a channel when a webhook request is received") takes. */
export interface TeamsPayload {
  type: 'message';
  attachments: [
    {
      contentType: 'application/vnd.microsoft.card.adaptive';
      contentUrl: null;
      content: AdaptiveCard;
    },
  ];
}

/**
 * Most bytes of one request body. Teams documents about 28 KB a message and answers 413
 * (`RequestEntityTooLarge`) above it; senders report refusals from about 21 KB in practice (the limit
 * counts the message as Teams stores it, not our JSON), so a part stays under 20,000 bytes of UTF-8 JSON.
 */
export const TEAMS_MAX_BYTES = 20_000;

/** Wraps card body blocks in the webhook's message envelope. */
export function teamsPayload(body: TextBlock[]): TeamsPayload {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          msteams: { width: 'Full' },
          body,
        },
      },
    ],
  };
}

/** Bytes of a value as sent: its UTF-8 JSON. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/** A TextBlock that wraps, with the given options. */
export function textBlock(text: string, options: Omit<TextBlock, 'type' | 'text' | 'wrap'> = {}): TextBlock {
  return { type: 'TextBlock', text, wrap: true, ...options };
}
