import { displayText } from "../channels/format.js";
import { closestNames } from "../jobs/watchlist.js";
import { HolderIdentities } from "../positions/holder-identity.js";
import { issuerMatches } from "../routing/match-keys.js";
import { looksLikeIsin } from "../sources/values.js";
import { closestHolders, isKnownHolder } from "./known-holders.js";
function entriesOf(config, list) {
  return config.channels.flatMap(
    (channel, index) => (channel.filter[list] ?? []).map((value, at) => ({
      path: `channels[${index}].filter.${list}[${at}]`,
      value
    }))
  );
}
function filtersNameIssuers(config) {
  return entriesOf(config, "issuers").length > 0;
}
function filterIssuerIssues(config, directory) {
  if (directory.length === 0) return [];
  const issuers = directory.map((issuer) => ({ id: issuer.svc_issuer_id, name: issuer.name }));
  return entriesOf(config, "issuers").flatMap(({ path, value }) => {
    if (issuers.some((issuer) => issuerMatches(value, issuer))) return [];
    if (namesRegisterIssuer(config, value)) return [];
    const closest = closestNames(value, directory).map(displayText);
    const message = `issuer "${displayText(value)}" is not in the upstream's issuer list, so this filter never matches it; closest: ${closest.join(", ") || "none"}`;
    return [{ path, message }];
  });
}
function namesRegisterIssuer(config, value) {
  if (config.sources.length === 0) return false;
  if (looksLikeIsin(value)) return true;
  return config.sources.some(
    (source) => source.watchlist !== "all" && source.watchlist.some((entry) => issuerMatches(entry, { id: value, name: value }))
  );
}
function filterHolderReview(config, known) {
  const review = { issues: [], warnings: [] };
  if (known.length === 0) return review;
  const entries = [...entriesOf(config, "holders"), ...entriesOf(config, "excludeHolders")];
  const identities = new HolderIdentities(config.holders.aliases);
  for (const { path, value } of entries) {
    if (isKnownHolder(value, known) || identities.declares(value)) continue;
    const closest = closestHolders(value, known).map(displayText);
    const what = `holder "${displayText(value)}" matches no holder in the snapshots, the event log or the registers' files`;
    if (closest.length > 0) review.issues.push({ path, message: `${what}; closest: ${closest.join(", ")}` });
    else review.warnings.push({ path, message: `${what}, nor any close to it (not disclosed yet?)` });
  }
  return review;
}
export {
  filterHolderReview,
  filterIssuerIssues,
  filtersNameIssuers
};
