import { createHmac, timingSafeEqual } from "node:crypto";
const PURPOSES = ["manage", "unsubscribe"];
function mac(secret, payload) {
  return createHmac("sha256", secret).update(payload).digest();
}
function signLink(secret, claim) {
  const payload = `${claim.subscriberId}.${claim.generation}.${Math.floor(claim.expiresAt / 1e3)}.${claim.purpose}`;
  return `${payload}.${mac(secret, payload).toString("base64url")}`;
}
function readLink(secret, token, purpose, nowMs) {
  const parts = token.split(".");
  if (parts.length !== 5) return { ok: false, refusal: "malformed" };
  const [subscriberId = "", generation = "", expiry = "", claimed = "", signature = ""] = parts;
  const expected = mac(secret, parts.slice(0, 4).join("."));
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, refusal: "forged" };
  }
  const known = PURPOSES.find((p) => p === claimed);
  if (!/^\d+$/u.test(generation) || !/^\d+$/u.test(expiry) || !known)
    return { ok: false, refusal: "malformed" };
  if (known !== purpose) return { ok: false, refusal: "wrong-purpose" };
  const expiresAt = Number(expiry) * 1e3;
  if (expiresAt <= nowMs) return { ok: false, refusal: "expired" };
  return { ok: true, claim: { subscriberId, generation: Number(generation), purpose: known, expiresAt } };
}
function subscriberLinks(config, subscriber, now) {
  const settings = config.subscribers;
  const base = settings?.publicUrl ?? config.http.publicUrl;
  if (!settings || !base) return void 0;
  const secret = settings.linkSecret.reveal();
  const claim = {
    subscriberId: subscriber.id,
    generation: subscriber.linkGeneration,
    expiresAt: now.getTime() + settings.linkTtl
  };
  const url = (path, purpose) => new URL(
    `${path}/${signLink(secret, { ...claim, purpose })}`,
    base.endsWith("/") ? base : `${base}/`
  ).toString();
  return { manage: url("me", "manage"), unsubscribe: url("unsubscribe", "unsubscribe") };
}
function manageLink(config, subscriber, now) {
  return subscriberLinks(config, subscriber, now)?.manage;
}
export {
  manageLink,
  readLink,
  signLink,
  subscriberLinks
};
