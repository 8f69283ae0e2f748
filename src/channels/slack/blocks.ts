/** A plain-text object (headers); `emoji` turns `:name:` codes into emoji. */
export interface PlainTextObject {
  type: 'plain_text';
  text: string;
  emoji: boolean;
}

/** A mrkdwn text object. */
export interface MrkdwnObject {
  type: 'mrkdwn';
  text: string;
}

/** A large bold title. */
export interface HeaderBlock {
  type: 'header';
  text: PlainTextObject;
}

/** A paragraph of mrkdwn, with optional two-column fields. */
export interface SectionBlock {
  type: 'section';
  text: MrkdwnObject;
  fields?: MrkdwnObject[];
}

/** Small grey text under the content. */
export interface ContextBlock {
  type: 'context';
  elements: MrkdwnObject[];
}

/** A horizontal rule. */
export interface DividerBlock {
  type: 'divider';
}

/** The Block Kit blocks shortwatch uses. */
export type SlackBlock = HeaderBlock | SectionBlock | ContextBlock | DividerBlock;

/** One incoming-webhook message: blocks, and the plain `text` shown in notifications and by old clients. */
export interface SlackPayload {
  text: string;
  blocks: SlackBlock[];
}

/** Slack's documented limits, and a conservative total: Slack rejects blocks near 13,000 characters. */
export const SLACK_LIMITS = {
  blocks: 50,
  sectionText: 3000,
  headerText: 150,
  fieldText: 2000,
  contextText: 3000,
  fallbackText: 3000,
  blockChars: 11_000,
} as const;

/** Characters of text in the blocks, the measure behind Slack's `msg_blocks_too_long`. */
export function blockChars(blocks: readonly SlackBlock[]): number {
  let total = 0;
  for (const block of blocks) {
    switch (block.type) {
      case 'header':
        total += block.text.text.length;
        break;
      case 'section':
        total += block.text.text.length;
        for (const field of block.fields ?? []) total += field.text.length;
        break;
      case 'context':
        for (const element of block.elements) total += element.text.length;
        break;
      case 'divider':
        break;
    }
  }
  return total;
}

/** Whether a payload is within every limit in {@link SLACK_LIMITS}. */
export function withinLimits(payload: SlackPayload): boolean {
  if (payload.blocks.length > SLACK_LIMITS.blocks) return false;
  if (payload.text.length > SLACK_LIMITS.fallbackText) return false;
  if (blockChars(payload.blocks) > SLACK_LIMITS.blockChars) return false;
  return payload.blocks.every((block) => {
    if (block.type === 'header') return block.text.text.length <= SLACK_LIMITS.headerText;
    if (block.type === 'section') {
      const fields = block.fields ?? [];
      return (
        block.text.text.length <= SLACK_LIMITS.sectionText &&
        fields.length <= 10 &&
        fields.every((field) => field.text.length <= SLACK_LIMITS.fieldText)
      );
    }
    if (block.type === 'context') {
      return block.elements.every((element) => element.text.length <= SLACK_LIMITS.contextText);
    }
    return true;
  });
}
