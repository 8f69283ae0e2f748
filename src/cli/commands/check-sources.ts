import type { RegisterSourceConfig } from '../../config/schema/sources.js';
import { isWatched } from '../../jobs/registers/register-diff.js';
import { closestNames } from '../../jobs/watchlist.js';
import { readSource } from '../../sources/read-source.js';
import type { RegisterSnapshot } from '../../sources/types.js';

/** The lines `check` prints for its register sources. */
export interface SourceCheckOutput {
  ok(what: string): void;
  warn(what: string): void;
  fail(what: string): void;
}

/**
 * Each register source read once, whole, as `start` would read it (the same fetch, decode, parse and
 * health; no validators, so never a 304): what it lists and how much of it the source's watchlist
 * follows, or why it would not be read. A watchlist entry that no issuer of the register matches is a
 * WARN with the closest names: it would follow nothing, silently. Nothing is stored; the reads are
 * returned by source name, for the filters' holders to be checked against.
 */
export async function checkSources(
  sources: readonly RegisterSourceConfig[],
  out: SourceCheckOutput,
): Promise<Map<string, RegisterSnapshot>> {
  const reads = new Map<string, RegisterSnapshot>();
  for (const [index, source] of sources.entries()) {
    const read = await readSource(source, undefined);
    const label = `source ${source.name} (${source.kind})`;
    if (read.status === 'not-read') {
      out.fail(`${label}: not read: ${read.reason} (${read.detail})`);
      continue;
    }
    if (read.status === 'not-modified') {
      out.fail(`${label}: answered 304 to a request without validators`);
      continue;
    }
    reads.set(source.name, read.snapshot);
    out.ok(`${label}: ${describeRead(source, read.snapshot)}`);
    for (const entry of unmatchedEntries(source, read.snapshot))
      out.warn(`sources[${index}].watchlist: ${entry}`);
  }
  return reads;
}

function describeRead(source: RegisterSourceConfig, snapshot: RegisterSnapshot): string {
  const listed = snapshot.issuers.length;
  const watched = snapshot.issuers.filter((issuer) => isWatched(source.watchlist, issuer)).length;
  const what = snapshot.content === 'scope' ? 'shares in scope' : 'issuers';
  const follows = source.watchlist === 'all' ? 'all followed' : `${watched} followed`;
  const published = snapshot.publishedOn === undefined ? '' : `, published ${snapshot.publishedOn}`;
  return `${listed} ${what} in ${snapshot.rows} rows, ${follows}${published}`;
}

/** Watchlist entries no issuer of the read matches, each with the closest names it may have meant. */
function unmatchedEntries(source: RegisterSourceConfig, snapshot: RegisterSnapshot): string[] {
  if (source.watchlist === 'all') return [];
  const directory = snapshot.issuers.map((issuer) => ({ svc_issuer_id: issuer.key, name: issuer.name }));
  return source.watchlist
    .filter((entry) => !snapshot.issuers.some((issuer) => isWatched([entry], issuer)))
    .map((entry) => {
      const closest = closestNames(entry, directory);
      const hint = closest.length === 0 ? '' : `; closest: ${closest.join(', ')}`;
      return `"${entry}" is not listed by this register (it follows nothing until the register lists it${hint})`;
    });
}
