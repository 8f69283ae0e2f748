import { blockChars, SLACK_LIMITS, withinLimits } from "./blocks.js";
import { coalesceSlack } from "./coalesce.js";
import { escapeMrkdwn } from "./escape.js";
import { renderSlack } from "./render.js";
import {
  createSlackChannel,
  createSlackSender,
  PART_GAP_MS
} from "./send.js";
import { checkWebhookUrl } from "./webhook-url.js";
export {
  PART_GAP_MS,
  SLACK_LIMITS,
  blockChars,
  checkWebhookUrl,
  coalesceSlack,
  createSlackChannel,
  createSlackSender,
  escapeMrkdwn,
  renderSlack,
  withinLimits
};
