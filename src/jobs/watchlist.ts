import { displayText } from '../channels/format.js';
import type { WatchEntry, Watchlist } from '../config/schema.js';
import { editDistance } from '../text/edit-distance.js';
import type { Issuer } from '../upstream/schemas.js';
import { marketOf } from './observe/boundary.js';

/** A watchlist entry bound to an upstream issuer id. */
export interface WatchedIssuer {
  id: string;
  name: string;
  label?: string;
  /** The market whose boundary applies (`isin`'s country or `market`): see observe/boundary.ts. */
  market?: string;
}

/** A watchlist entry that could not be bound, with the closest names for the message. */
export interface WatchProblem {
  entry: string;
  problem: 'unknown' | 'ambiguous';
  candidates: string[];
}

/** Lower-cased, single-spaced, trimmed: how names are compared. */
export function normaliseName(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The `watchlist` setting, read-only: entries, or `all`. */
export type WatchlistSetting = Watchlist | readonly WatchEntry[];

/** True for `watchlist: all`: every issuer of the directory, followed as issuers join and leave it. */
export function isWholeDirectory(watchlist: WatchlistSetting): watchlist is 'all' {
  return watchlist === 'all';
}

/** The configured entries: none under `watchlist: all`, which names no issuer. */
export function watchEntries(watchlist: WatchlistSetting): readonly WatchEntry[] {
  return isWholeDirectory(watchlist) ? [] : watchlist;
}

/**
 * Binds the watchlist to issuer ids. `all` is every issuer the directory lists (none before one is
 * known). Ids are taken as given (an unknown id surfaces as a 404 when polled); names resolve case- and
 * whitespace-insensitively against the directory.
 */
export function resolveWatchlist(
  watchlist: WatchlistSetting,
  directory: readonly Issuer[] | null,
): { watched: WatchedIssuer[]; problems: WatchProblem[] } {
  if (isWholeDirectory(watchlist)) {
    const watched = (directory ?? []).map((issuer) => ({ id: issuer.svc_issuer_id, name: issuer.name }));
    return { watched, problems: [] };
  }
  return resolveEntries(watchlist, directory);
}

function resolveEntries(
  entries: readonly WatchEntry[],
  directory: readonly Issuer[] | null,
): { watched: WatchedIssuer[]; problems: WatchProblem[] } {
  const byName = new Map<string, Issuer[]>();
  for (const issuer of directory ?? []) {
    const key = normaliseName(issuer.name);
    byName.set(key, [...(byName.get(key) ?? []), issuer]);
  }
  const byId = new Map((directory ?? []).map((issuer) => [issuer.svc_issuer_id, issuer]));
  const watched = new Map<string, WatchedIssuer>();
  const problems: WatchProblem[] = [];
  for (const entry of entries) {
    if ('id' in entry) {
      watched.set(entry.id, {
        id: entry.id,
        name: byId.get(entry.id)?.name ?? entry.label ?? entry.id,
        label: entry.label,
        ...marketField(entry),
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
        ...marketField(entry),
      });
    } else if (directory !== null) {
      problems.push({
        entry: entry.name,
        problem: matches.length === 0 ? 'unknown' : 'ambiguous',
        candidates:
          matches.length === 0
            ? closestNames(entry.name, directory)
            : matches.map((m) => `${m.name} (${m.svc_issuer_id})`),
      });
    }
  }
  return { watched: [...watched.values()], problems };
}

/** The entry's market, from `market` or its ISIN's country; nothing when it gives neither. */
function marketField(entry: WatchEntry): { market?: string } {
  const market = marketOf(entry);
  return market === undefined ? {} : { market };
}

/**
 * Up to three directory names a misspelt `name` may have meant, for "did you mean": the closest by edit
 * distance, and none that is not close. A typo (`Borealis Minning plc`), a missing accent (`Cafe Muller`)
 * or a name cut short (`Vantage Bank`) finds its issuer; an issuer the directory does not have finds none,
 * rather than three unrelated names.
 */
export function closestNames(name: string, directory: readonly Issuer[], count = 3): string[] {
  const target = looseName(name);
  // A third of the name may be wrong; shorter names get two edits.
  const allowed = Math.max(2, Math.floor(target.length / 3));
  return directory
    .map((issuer) => {
      const candidate = looseName(issuer.name);
      return { issuer, near: partDistance(target, candidate), whole: editDistance(target, candidate) };
    })
    .filter(({ near }) => near <= allowed)
    .sort((a, b) => a.near - b.near || a.whole - b.whole || a.issuer.name.localeCompare(b.issuer.name))
    .slice(0, count)
    .map(({ issuer }) => `${issuer.name} (${issuer.svc_issuer_id})`);
}

/** {@link normaliseName} without accents, for suggestions only: `Café Müller` is near `cafe muller`. */
function looseName(name: string): string {
  return normaliseName(name).normalize('NFD').replace(/\p{M}/gu, '');
}

/**
 * The edit distance from `target` to the whole of `candidate` or to its stretch of the same length starting
 * at any word: `vantage bank` is 0 from `vantage bank plc`, `mining` 0 from `borealis mining plc`.
 */
function partDistance(target: string, candidate: string): number {
  let best = editDistance(target, candidate);
  for (let start = 0; start < candidate.length; start++) {
    if (start > 0 && candidate[start - 1] !== ' ') continue;
    best = Math.min(best, editDistance(target, candidate.slice(start, start + target.length)));
  }
  return best;
}

/**
 * Watchlist ids the issuer list does not name (an issuer that left the directory, or a typo): still
 * polled, since ids are taken as given, but reported as the watchlist problem they are.
 */
export function unlistedIds(
  watched: readonly WatchedIssuer[],
  directory: readonly Issuer[],
): WatchedIssuer[] {
  if (directory.length === 0) return [];
  const listed = new Set(directory.map((issuer) => issuer.svc_issuer_id));
  return watched.filter((issuer) => !listed.has(issuer.id));
}

/**
 * What the sweep's `watchlist` notice says, one line each: names that do not resolve, ids the issuer list
 * does not name, and under `all` an empty issuer list (nothing is watched). Under `all` an issuer that
 * leaves the list is simply no longer watched: that is no problem.
 */
export function watchlistProblems(
  watchlist: WatchlistSetting,
  directory: readonly Issuer[],
  resolved: { watched: readonly WatchedIssuer[]; problems: readonly WatchProblem[] },
): string[] {
  if (isWholeDirectory(watchlist)) {
    return directory.length === 0
      ? ["watchlist: all, but the upstream's issuer list is empty: no issuer is polled until it lists some"]
      : [];
  }
  return [
    ...resolved.problems.map(describeProblem),
    ...unlistedIds(resolved.watched, directory).map(
      (w) =>
        `watchlist id "${displayText(w.id)}" is not in the upstream's issuer list (it left, or the id is wrong); it is asked once a day`,
    ),
  ];
}

/** A watchlist problem in one line, for errors and notices. */
export function describeProblem(problem: WatchProblem): string {
  const what = problem.problem === 'unknown' ? 'matches no issuer' : 'matches several issuers';
  const closest = problem.candidates.map(displayText).join(', ') || 'none';
  return `watchlist entry "${problem.entry}" ${what}; closest: ${closest}`;
}
