import { reachHost } from "../channels/reach-host.js";
import { UnresolvedSecret } from "../config/unresolved-secret.js";
import { within } from "../time/within.js";
const REACH_STEP_MS = 5e3;
const VERIFY_MS = 1e4;
function urlTarget(url) {
  if (url instanceof UnresolvedSecret) return void 0;
  try {
    const parsed = new URL(typeof url === "string" ? url : url.reveal());
    const tls = parsed.protocol === "https:";
    if (!tls && parsed.protocol !== "http:") return void 0;
    const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
    return { host, port: Number(parsed.port) || (tls ? 443 : 80), tls };
  } catch {
    return void 0;
  }
}
function smtpTarget(config) {
  if (config.smtpUrl !== void 0) {
    if (config.smtpUrl instanceof UnresolvedSecret) return void 0;
    try {
      const url = new URL(config.smtpUrl.reveal());
      const tls2 = url.protocol === "smtps:";
      return {
        host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
        port: Number(url.port) || (tls2 ? 465 : 587),
        tls: tls2
      };
    } catch {
      return void 0;
    }
  }
  const tls = config.secure === true;
  return {
    host: config.host ?? "localhost",
    port: config.port ?? (tls ? 465 : 587),
    tls,
    smtpStartTls: !tls
  };
}
function channelTarget(channel) {
  switch (channel.kind) {
    case "slack":
    case "teams":
      return urlTarget(channel.webhookUrl);
    case "webhook":
      return urlTarget(channel.url);
    case "slack-app":
      return urlTarget(channel.apiUrl);
    case "email":
      return smtpTarget(channel);
    default:
      return void 0;
  }
}
const VERIFY_TALKS = /* @__PURE__ */ new Set(["email", "slack-app"]);
async function verifyChannel(channel, sender, limits = { stepMs: REACH_STEP_MS, verifyMs: VERIFY_MS }) {
  const target = channelTarget(channel);
  const reach = () => target === void 0 ? Promise.resolve(void 0) : reachHost(target, limits.stepMs);
  const verify = () => within(sender.verify(), limits.verifyMs, `${channel.kind} verify`);
  let verified;
  let reached;
  if (VERIFY_TALKS.has(channel.kind)) {
    reached = await reach();
    verified = await verify();
  } else {
    verified = await verify();
    reached = await reach();
  }
  return reached === void 0 ? verified : `${verified}; ${reached}`;
}
export {
  REACH_STEP_MS,
  VERIFY_MS,
  channelTarget,
  verifyChannel
};
