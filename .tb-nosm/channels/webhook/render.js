import { jsonChannelMessage, stringifyVisible } from "../format.js";
function renderWebhookBody(channel, message, sentAt) {
  const body = { version: 1, channel, sentAt: sentAt.toISOString(), ...jsonChannelMessage(message) };
  return stringifyVisible(body);
}
const DELIVERY_HEADER = "x-shortwatch-delivery";
export {
  DELIVERY_HEADER,
  renderWebhookBody
};
