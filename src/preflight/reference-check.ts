import { ConfigError, type ConfigIssue } from '../config/config-error.js';
import type { Config } from '../config/schema.js';
import { resolveWatchlist, type WatchedIssuer } from '../jobs/watchlist.js';
import type { IssuerDirectory } from '../state/directory.js';
import type { EventLog } from '../state/event-log.js';
import type { SnapshotStore } from '../state/snapshot-store.js';
import type { Logger } from '../telemetry/logger.js';
import type { Issuer, IssuerList } from '../upstream/index.js';
import { filterHolderReview } from './filter-references.js';
import { readKnownHolders } from './known-holders.js';
import { directoryIssues, needsDirectory } from './preflight.js';

/** What the reference check reads: the stores, one upstream request, and where to warn. */
export interface ReferenceSources {
  directory: IssuerDirectory;
  snapshots: SnapshotStore;
  eventLog: EventLog;
  /** One `GET /issuers`, asked only when the saved directory cannot decide. */
  listIssuers: () => Promise<IssuerList>;
  logger: Logger;
}

/** A config the references accept: the watched issuers, the directory judged by, and a list to save. */
export interface ReferencesAccepted {
  watched: WatchedIssuer[];
  directory: readonly Issuer[] | null;
  /** The issuer list fetched to decide, for the caller to save once it accepts the config. */
  fetched?: IssuerList;
}

/**
 * The checks a start and a reload share with `shortwatch check` beyond the config alone, writing nothing:
 * the watchlist names and the filters' issuers against the issuer directory, then the filters' holders
 * against the holders stored. The directory in Redis is used when it decides everything; otherwise (none
 * yet, or a name it lacks, maybe an issuer listed since) one `GET /issuers` decides. When that cannot be
 * fetched either, the names resolve at the first sweep (a notice if they do not). Without `upstream`
 * there is no directory: the watchlist is empty and filter issuers name register issuers, unchecked.
 * Throws a {@link ConfigError} naming each problem's key.
 */
export async function checkReferences(
  config: Config,
  source: string,
  from: ReferenceSources,
): Promise<ReferencesAccepted> {
  // A directory saved while the config had an upstream says nothing of the registers' issuers.
  const cached = config.upstream === undefined ? null : ((await from.directory.load())?.issuers ?? null);
  let checked = cached === null ? undefined : directoryIssues(config, cached);
  let fetched: IssuerList | undefined;
  if (needsDirectory(config) && checked?.issues.length !== 0) {
    fetched = await fetchDirectory(from);
    if (fetched) checked = directoryIssues(config, fetched.data);
  }
  const watched = checked?.watched ?? resolveWatchlist(config.watchlist, null).watched;
  const known = await readKnownHolders(
    from,
    watched.map((issuer) => issuer.id),
  );
  const holders = filterHolderReview(config, known);
  const issues: ConfigIssue[] = [...(checked?.issues ?? []), ...holders.issues];
  if (issues.length > 0) throw new ConfigError(source, issues);
  for (const warning of holders.warnings) from.logger.warn(`${warning.path}: ${warning.message}`);
  return { watched, directory: fetched?.data ?? cached, ...(fetched ? { fetched } : {}) };
}

async function fetchDirectory(from: ReferenceSources): Promise<IssuerList | undefined> {
  try {
    return await from.listIssuers();
  } catch (error) {
    from.logger.warn({ err: error }, 'could not fetch the issuer directory to check the config');
    return undefined;
  }
}
