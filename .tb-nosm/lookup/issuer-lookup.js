import { displayText } from "../channels/format.js";
import {
  closestNames,
  isWholeDirectory,
  normaliseName,
  resolveWatchlist,
  watchEntries
} from "../jobs/watchlist.js";
import { LookupError } from "./lookup-error.js";
async function issuerSources(directory, watchlist) {
  return { directory: (await directory.load())?.issuers ?? null, watchlist };
}
function lookupIssuer(argument, sources, options = {}) {
  const directory = sources.directory ?? [];
  const wanted = normaliseName(argument);
  const byId = directory.find((issuer) => issuer.svc_issuer_id === argument.trim());
  if (byId) return named(byId, "id");
  const byName = directory.filter((issuer) => normaliseName(issuer.name) === wanted);
  if (byName.length > 1) throw severalIssuers(argument, byName);
  if (byName[0]) return named(byName[0], "name");
  const watched = fromWatchlist(argument, sources);
  if (watched) return watched;
  if (options.partial && wanted !== "") {
    const parts = directory.filter((issuer) => normaliseName(issuer.name).includes(wanted));
    if (parts.length > 1) throw severalIssuers(argument, parts);
    if (parts[0]) return named(parts[0], "partial");
  }
  throw unknownIssuer(argument, sources);
}
function isWatched(issuer, sources) {
  if (sources.directory !== null) {
    return resolveWatchlist(sources.watchlist, sources.directory).watched.some((w) => w.id === issuer.id);
  }
  if (isWholeDirectory(sources.watchlist)) return true;
  return sources.watchlist.some(
    (entry) => "id" in entry ? entry.id === issuer.id : normaliseName(entry.name) === normaliseName(issuer.name)
  );
}
function named(issuer, via) {
  return { id: issuer.svc_issuer_id, name: issuer.name, via };
}
function fromWatchlist(argument, sources) {
  const wanted = normaliseName(argument);
  for (const entry of watchEntries(sources.watchlist)) {
    const isEntry = "id" in entry ? entry.id === argument.trim() : normaliseName(entry.name) === wanted;
    const isLabel = entry.label !== void 0 && normaliseName(entry.label) === wanted;
    if (!isEntry && !isLabel) continue;
    const via = isEntry ? "id" in entry ? "id" : "name" : "label";
    if ("id" in entry) {
      const listed = sources.directory?.find((issuer) => issuer.svc_issuer_id === entry.id);
      return { id: entry.id, name: listed?.name ?? entry.id, via };
    }
    if (sources.directory === null) return { id: entry.name, name: entry.name, via };
    const [bound] = resolveWatchlist([entry], sources.directory).watched;
    if (bound) return { id: bound.id, name: bound.name, via };
  }
  return void 0;
}
function severalIssuers(argument, issuers) {
  const shown = issuers.slice(0, 10).map((i) => `${displayText(i.name)} (${displayText(i.svc_issuer_id)})`);
  const more = issuers.length > shown.length ? ` and ${issuers.length - shown.length} more` : "";
  return new LookupError(
    `"${displayText(argument)}" names several issuers: ${shown.join(", ")}${more}; give the id or the whole name`
  );
}
function unknownIssuer(argument, sources) {
  const what = `no issuer "${displayText(argument)}"`;
  if (sources.directory === null) {
    const entries = isWholeDirectory(sources.watchlist) ? "all: the whole directory" : sources.watchlist.map((e) => displayText("id" in e ? e.id : e.name)).join(", ") || "empty";
    return new LookupError(
      `${what} on the watchlist (${entries}), and no issuer list is saved yet to look it up in: the daemon's first sweep or \`shortwatch issuers\` saves one`
    );
  }
  const closest = closestNames(argument, sources.directory).map(displayText);
  return new LookupError(
    `${what} in the issuer list or the watchlist; closest: ${closest.join(", ") || "none"}`
  );
}
export {
  isWatched,
  issuerSources,
  lookupIssuer
};
