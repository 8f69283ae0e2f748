import { parseDuration } from "../../config/duration.js";
import { checkHolderName, holderStores } from "../../lookup/holder-lookup.js";
import { issuerSources, lookupIssuer } from "../../lookup/issuer-lookup.js";
import { isLookupError } from "../../lookup/lookup-error.js";
import { isInvalidMuteError } from "../../routing/index.js";
function muteFields(form) {
  const get = (name) => (form.get(name) ?? "").trim();
  return {
    scope: get("scope"),
    target: get("target"),
    channel: get("channel"),
    for: get("for"),
    reason: get("reason"),
    digests: form.get("digests") === "on"
  };
}
async function muteRequest(app, f) {
  if (f.scope !== "holder" && f.scope !== "issuer") return "mute what? holder or issuer";
  if (f.target === "") return `name the ${f.scope} to mute`;
  const forMs = parseDuration(f.for);
  if (!forMs || forMs <= 0) return `"${f.for}" is not a duration (e.g. 7d, 12h)`;
  if (f.channel && !app.settings.config.channels.some((c) => c.name === f.channel))
    return `no channel named "${f.channel}"`;
  let target = f.target;
  try {
    if (f.scope === "issuer") {
      const issuer = lookupIssuer(
        f.target,
        await issuerSources(app.ctx.directory, app.settings.config.watchlist)
      );
      if (issuer.via === "label") target = issuer.id;
    } else await checkHolderName(holderStores(app.ctx), app.settings.config, f.target, { strict: true });
  } catch (error) {
    if (isLookupError(error)) return error.message;
    throw error;
  }
  return {
    scope: f.scope,
    target,
    ...f.channel ? { channel: f.channel } : {},
    ...f.reason ? { reason: f.reason } : {},
    digests: f.digests,
    forMs
  };
}
async function addMute(app, request) {
  try {
    await app.ctx.mutes.add(request);
    return null;
  } catch (error) {
    if (isInvalidMuteError(error)) return error.message;
    throw error;
  }
}
export {
  addMute,
  muteFields,
  muteRequest
};
