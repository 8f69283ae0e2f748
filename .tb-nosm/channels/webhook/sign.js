import { Webhook } from "standardwebhooks";
function createWebhookSigner(secret) {
  const webhook = new Webhook(secret);
  return (id, sentAt, body) => ({
    "webhook-id": id,
    // The package signs whole seconds of sentAt: the header must carry the same second.
    "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1e3)),
    "webhook-signature": webhook.sign(id, sentAt, body)
  });
}
export {
  createWebhookSigner
};
