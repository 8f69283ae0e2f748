import { listId } from "./list-id.js";
import { deliveryMessageId } from "./message-id.js";
import { oneLine } from "./text.js";
import { threadDay, threadRootId } from "./thread.js";
const MESSAGE_TYPE_HEADER = "X-Shortwatch-Message";
const DELIVERY_HEADER = "X-Shortwatch-Delivery";
function threadRoot(message, channel) {
  if (message.type !== "events") return void 0;
  const day = threadDay(message.events);
  return day === void 0 ? void 0 : threadRootId(channel.name, message.issuer.id, day, channel.from);
}
function deliveryFields(message, channel, progress) {
  const headers = {
    [MESSAGE_TYPE_HEADER]: message.type,
    "Auto-Submitted": "auto-generated",
    // nodemailer would MIME-encode the quotes and brackets of a list id, which no client reads back.
    "List-Id": { prepared: true, value: listId(channel.name, channel.from) }
  };
  const root = threadRoot(message, channel);
  const thread = root ? { inReplyTo: root, references: root } : {};
  if (!progress) return { headers, ...thread };
  headers[DELIVERY_HEADER] = oneLine(progress.deliveryId);
  return { headers, messageId: deliveryMessageId(progress.deliveryId, channel.from), ...thread };
}
export {
  DELIVERY_HEADER,
  MESSAGE_TYPE_HEADER,
  deliveryFields
};
