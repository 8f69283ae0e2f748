import { displayText } from "../channels/format.js";
import { editDistance } from "../text/edit-distance.js";
import { marketOf } from "./observe/boundary.js";
function normaliseName(name) {
  return name.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}
function isWholeDirectory(watchlist) {
  return watchlist === "all";
}
function watchEntries(watchlist) {
  return isWholeDirectory(watchlist) ? [] : watchlist;
}
function resolveWatchlist(watchlist, directory) {
  if (isWholeDirectory(watchlist)) {
    const watched = (directory ?? []).map((issuer) => ({ id: issuer.svc_issuer_id, name: issuer.name }));
    return { watched, problems: [] };
  }
  return resolveEntries(watchlist, directory);
}
function resolveEntries(entries, directory) {
  const byName = /* @__PURE__ */ new Map();
  for (const issuer of directory ?? []) {
    const key = normaliseName(issuer.name);
    byName.set(key, [...byName.get(key) ?? [], issuer]);
  }
  const byId = new Map((directory ?? []).map((issuer) => [issuer.svc_issuer_id, issuer]));
  const watched = /* @__PURE__ */ new Map();
  const problems = [];
  for (const entry of entries) {
    if ("id" in entry) {
      watched.set(entry.id, {
        id: entry.id,
        name: byId.get(entry.id)?.name ?? entry.label ?? entry.id,
        label: entry.label,
        ...marketField(entry)
      });
      continue;
    }
    const matches = byName.get(normaliseName(entry.name)) ?? [];
    const [only] = matches;
    if (matches.length === 1 && only) {
      watched.set(only.svc_issuer_id, {
        id: only.svc_issuer_id,
        name: only.name,
        label: entry.label,
        ...marketField(entry)
      });
    } else if (directory !== null) {
      problems.push({
        entry: entry.name,
        problem: matches.length === 0 ? "unknown" : "ambiguous",
        candidates: matches.length === 0 ? closestNames(entry.name, directory) : matches.map((m) => `${m.name} (${m.svc_issuer_id})`)
      });
    }
  }
  return { watched: [...watched.values()], problems };
}
function marketField(entry) {
  const market = marketOf(entry);
  return market === void 0 ? {} : { market };
}
function closestNames(name, directory, count = 3) {
  const target = looseName(name);
  const allowed = Math.max(2, Math.floor(target.length / 3));
  return directory.map((issuer) => {
    const candidate = looseName(issuer.name);
    return { issuer, near: partDistance(target, candidate), whole: editDistance(target, candidate) };
  }).filter(({ near }) => near <= allowed).sort((a, b) => a.near - b.near || a.whole - b.whole || a.issuer.name.localeCompare(b.issuer.name)).slice(0, count).map(({ issuer }) => `${issuer.name} (${issuer.svc_issuer_id})`);
}
function looseName(name) {
  return normaliseName(name).normalize("NFD").replace(new RegExp("\\p{M}", "gu"), "");
}
function partDistance(target, candidate) {
  let best = editDistance(target, candidate);
  for (let start = 0; start < candidate.length; start++) {
    if (start > 0 && candidate[start - 1] !== " ") continue;
    best = Math.min(best, editDistance(target, candidate.slice(start, start + target.length)));
  }
  return best;
}
function unlistedIds(watched, directory) {
  if (directory.length === 0) return [];
  const listed = new Set(directory.map((issuer) => issuer.svc_issuer_id));
  return watched.filter((issuer) => !listed.has(issuer.id));
}
function watchlistProblems(watchlist, directory, resolved) {
  if (isWholeDirectory(watchlist)) {
    return directory.length === 0 ? ["watchlist: all, but the upstream's issuer list is empty: no issuer is polled until it lists some"] : [];
  }
  return [
    ...resolved.problems.map(describeProblem),
    ...unlistedIds(resolved.watched, directory).map(
      (w) => `watchlist id "${displayText(w.id)}" is not in the upstream's issuer list (it left, or the id is wrong); it is asked once a day`
    )
  ];
}
function describeProblem(problem) {
  const what = problem.problem === "unknown" ? "matches no issuer" : "matches several issuers";
  const closest = problem.candidates.map(displayText).join(", ") || "none";
  return `watchlist entry "${problem.entry}" ${what}; closest: ${closest}`;
}
export {
  closestNames,
  describeProblem,
  isWholeDirectory,
  normaliseName,
  resolveWatchlist,
  unlistedIds,
  watchEntries,
  watchlistProblems
};
