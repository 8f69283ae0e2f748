import { displayText } from "../channels/format.js";
import { resolveWatchlist } from "../jobs/watchlist.js";
import { holderKey, holderQueryMatches } from "../positions/index.js";
import { gatherHolders } from "../preflight/holder-sources.js";
import { closestHolders, isKnownHolder } from "../preflight/known-holders.js";
import { RegisterStore } from "../state/register-store.js";
import { issuerSources } from "./issuer-lookup.js";
import { LookupError } from "./lookup-error.js";
function holderStores(ctx) {
  const { directory, snapshots, eventLog } = ctx;
  return { directory, snapshots, eventLog, registers: new RegisterStore(ctx.redis, ctx.prefix) };
}
async function checkHolderName(stores, config, argument, options = {}) {
  const { directory, watchlist } = await issuerSources(stores.directory, config.watchlist);
  const watched = resolveWatchlist(watchlist, directory).watched.map((issuer) => issuer.id);
  const { holders: known } = await gatherHolders(config, stores, watched);
  if (isKnownHolder(argument, known)) return void 0;
  const what = `holder "${displayText(argument)}"`;
  if (known.length === 0) return `no snapshot, event or register read is stored yet to check ${what} against`;
  const closest = closestHolders(argument, known).map(displayText);
  const where = "the snapshots, the event log or the registers' files";
  if (closest.length > 0) throw new LookupError(`no ${what} in ${where}; closest: ${closest.join(", ")}`);
  if (options.strict)
    throw new LookupError(`no ${what} in ${where}, nor any close to it (${known.length} holders known)`);
  return `${what} matches no holder stored yet, nor any close to it (not disclosed yet?)`;
}
function lookupHolder(typed, known) {
  const byKey = /* @__PURE__ */ new Map();
  for (const name of known) if (holderQueryMatches(typed, name)) byKey.set(holderKey(name), name);
  const names = [...byKey.values()];
  const [only] = names;
  if (only !== void 0 && names.length === 1) return { kind: "known", name: only };
  if (names.length > 1) return { kind: "ambiguous", names: names.sort() };
  return { kind: "unknown", name: typed };
}
export {
  checkHolderName,
  holderStores,
  lookupHolder
};
