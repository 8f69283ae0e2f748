export type {
  ContextBlock,
  DividerBlock,
  HeaderBlock,
  MrkdwnObject,
  PlainTextObject,
  SectionBlock,
  SlackBlock,
  SlackPayload,
} from './blocks.js';
export { blockChars, SLACK_LIMITS, withinLimits } from './blocks.js';
export { coalesceSlack } from './coalesce.js';
export { escapeMrkdwn } from './escape.js';
export { renderSlack, type SlackRenderOptions } from './render.js';
export {
  createSlackChannel,
  createSlackSender,
  PART_GAP_MS,
  type SlackChannelConfig,
  type SlackSender,
  type SlackSenderDeps,
} from './send.js';
export { checkWebhookUrl } from './webhook-url.js';
