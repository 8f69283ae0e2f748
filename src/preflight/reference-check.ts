import { ConfigError, type ConfigIssue } from '../config/config-error.js';
import type { RegisterSourceConfig } from '../config/schema/sources.js';
import type { Config } from '../config/schema.js';
import { resolveWatchlist, type WatchedIssuer } from '../jobs/watchlist.js';
import type { RegisterSnapshot } from '../sources/types.js';
import type { IssuerDirectory } from '../state/directory.js';
import type { EventLog } from '../state/event-log.js';
import type { SnapshotStore } from '../state/snapshot-store.js';
import type { Logger } from '../telemetry/logger.js';
import type { Issuer, IssuerList } from '../upstream/index.js';
import { filterHolderReview, type HolderReview } from './filter-references.js';
import { filtersNameHolders, gatherHolders, unjudgedSources } from './holder-sources.js';
import type { StoredRegisters } from './known-holders.js';
import { directoryIssues, needsDirectory } from './preflight.js';

/** What the reference check reads: the stores, one upstream request, and where to warn. */
export interface ReferenceSources {
  directory: IssuerDirectory;
  snapshots: SnapshotStore;
  eventLog: EventLog;
  /** The register sources' stored reads: their holders count. */
  registers: StoredRegisters;
  /** One read of a register never read yet, when the filters name holders (a fresh deployment). */
  readRegister: (source: RegisterSourceConfig) => Promise<RegisterSnapshot | undefined>;
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
 * against every source that names holders (preflight/holder-sources.ts: the stored snapshots and event
 * log, and the registers' reads, a register never read yet being read once here). The directory in Redis is used when it decides everything; otherwise (none
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
  const holders = await reviewHolders(config, from, watched);
  const issues: ConfigIssue[] = [...(checked?.issues ?? []), ...holders.issues];
  if (issues.length > 0) throw new ConfigError(source, issues);
  for (const warning of holders.warnings) from.logger.warn(`${warning.path}: ${warning.message}`);
  return { watched, directory: fetched?.data ?? cached, ...(fetched ? { fetched } : {}) };
}

/** The filters' holders judged against every source that names holders; what could not be judged is a warning. */
async function reviewHolders(
  config: Config,
  from: ReferenceSources,
  watched: readonly WatchedIssuer[],
): Promise<HolderReview> {
  if (!filtersNameHolders(config)) return { issues: [], warnings: [] };
  const ids = watched.map((issuer) => issuer.id);
  const knowledge = await gatherHolders(config, from, ids, { readMissing: from.readRegister });
  const review = filterHolderReview(config, knowledge.holders);
  const gaps = unjudgedSources(config, knowledge);
  if (gaps !== undefined) {
    const what = knowledge.holders.length === 0 ? 'not checked' : 'not checked against';
    review.warnings.push({ path: 'channels[].filter', message: `holders ${what}: ${gaps}` });
  }
  return review;
}

async function fetchDirectory(from: ReferenceSources): Promise<IssuerList | undefined> {
  try {
    return await from.listIssuers();
  } catch (error) {
    from.logger.warn({ err: error }, 'could not fetch the issuer directory to check the config');
    return undefined;
  }
}
