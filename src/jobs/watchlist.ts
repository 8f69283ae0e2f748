import type { WatchEntry } from '../config/schema.js';
import type { Issuer } from '../upstream/schemas.js';

/** A watchlist entry bound to an upstream issuer id. */
export interface WatchedIssuer {
  id: string;
  name: string;
  label?: string;
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

/**
 * Binds watchlist entries to issuer ids. Ids are taken as given (an unknown id surfaces as a 404 when
 * polled); names resolve case- and whitespace-insensitively against the directory.
 */
export function resolveWatchlist(
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
      });
      continue;
    }
    const matches = byName.get(normaliseName(entry.name)) ?? [];
    const [only] = matches;
    if (matches.length === 1 && only) {
      watched.set(only.svc_issuer_id, { id: only.svc_issuer_id, name: only.name, label: entry.label });
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

/** The three directory names closest to `name` by edit distance, for "did you mean". */
export function closestNames(name: string, directory: readonly Issuer[], count = 3): string[] {
  const target = normaliseName(name);
  return directory
    .map((issuer) => ({ issuer, distance: editDistance(target, normaliseName(issuer.name)) }))
    .sort((a, b) => a.distance - b.distance || a.issuer.name.localeCompare(b.issuer.name))
    .slice(0, count)
    .map(({ issuer }) => `${issuer.name} (${issuer.svc_issuer_id})`);
}

/** Levenshtein distance, two rows at a time. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** A watchlist problem in one line, for errors and notices. */
export function describeProblem(problem: WatchProblem): string {
  const what = problem.problem === 'unknown' ? 'matches no issuer' : 'matches several issuers';
  return `watchlist entry "${problem.entry}" ${what}; closest: ${problem.candidates.join(', ') || 'none'}`;
}
