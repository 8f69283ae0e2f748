import { z } from "zod";
import { HolderIdentities } from "../positions/holder-identity.js";
import { holderKey } from "../positions/holder-key.js";
import { issuerMatches, issuerNameKey } from "./match-keys.js";
const muteSchema = z.object({
  scope: z.enum(["holder", "issuer"]),
  /** As typed by the operator. */
  target: z.string().min(1),
  /** holderKey(target) for holders; the normalised name for issuers. */
  key: z.string().min(1),
  /** Only this channel; absent: every channel. */
  channel: z.string().optional(),
  /** Epoch ms at which the mute lapses. */
  until: z.number(),
  reason: z.string().optional(),
  /** true: digests are silenced too; false: digest channels still receive the muted events. */
  digests: z.boolean(),
  createdAt: z.number()
});
function muteKey(scope, target) {
  return scope === "holder" ? holderKey(target) : issuerNameKey(target);
}
function isMuted(event, channel, mutes, holders = HolderIdentities.none) {
  return mutes.find(
    (mute) => (mute.channel === void 0 || mute.channel === channel.name) && (channel.mode !== "digest" || mute.digests) && (mute.scope === "holder" ? holders.matches(mute.target, event) : issuerMatches(mute.target.trim(), event.issuer))
  );
}
export {
  isMuted,
  muteKey,
  muteSchema
};
