import { checkWebhookUrl } from "../channels/slack/webhook-url.js";
import { UnresolvedSecret } from "../config/unresolved-secret.js";
function urlOf(channel) {
  switch (channel.kind) {
    case "slack":
    case "teams":
      return { key: "webhookUrl", url: channel.webhookUrl, webhook: true };
    case "webhook":
      return { key: "url", url: channel.url, webhook: false };
    default:
      return void 0;
  }
}
function webhookProblem(raw) {
  const check = checkWebhookUrl(raw);
  return check.ok ? void 0 : check.problem;
}
function endpointProblem(raw) {
  let url;
  try {
    url = new URL(raw);
  } catch {
    return "is not a URL";
  }
  return url.protocol === "https:" || url.protocol === "http:" ? void 0 : "must be an http or https URL";
}
function channelUrlIssues(config) {
  return config.channels.flatMap((channel, index) => {
    const found = urlOf(channel);
    if (found === void 0 || found.url instanceof UnresolvedSecret) return [];
    const raw = found.url.reveal();
    const problem = found.webhook ? webhookProblem(raw) : endpointProblem(raw);
    return problem === void 0 ? [] : [{ path: `channels[${index}].${found.key}`, message: problem }];
  });
}
export {
  channelUrlIssues
};
