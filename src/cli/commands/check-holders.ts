import type { ConfigIssue } from '../../config/config-error.js';
import type { Config } from '../../config/schema.js';
import type { WatchedIssuer } from '../../jobs/watchlist.js';
import { filterHolderReview } from '../../preflight/filter-references.js';
import {
  filtersNameHolders,
  gatherHolders,
  type HolderKnowledge,
  type HolderStores,
  unjudgedSources,
} from '../../preflight/holder-sources.js';
import type { RegisterSnapshot } from '../../sources/types.js';

/** The lines `check` prints for the filters' holders. */
export interface HolderCheckOutput {
  ok(what: string): void;
  warn(what: string): void;
  /** A problem `start` refuses (exit 2), at its key path. */
  problem(issue: ConfigIssue): void;
}

/**
 * The filters' holders against every source that names holders (preflight/holder-sources.ts): the stored
 * snapshots and event log, and the registers' files as just read (`--offline`: as stored), as `start`
 * judges them. What could not be consulted (the upstream before its first sweep) is a WARN.
 */
export async function checkHolders(
  config: Config,
  stores: HolderStores,
  at: { watched: readonly WatchedIssuer[]; reads: ReadonlyMap<string, RegisterSnapshot> },
  out: HolderCheckOutput,
): Promise<void> {
  if (!filtersNameHolders(config)) return;
  const ids = at.watched.map((issuer) => issuer.id);
  const knowledge = await gatherHolders(config, stores, ids, { fresh: at.reads });
  const gaps = unjudgedSources(config, knowledge);
  if (knowledge.holders.length === 0) {
    out.warn(`filter holders not checked: nothing names a holder yet: ${gaps ?? 'no source'}`);
    return;
  }
  const { issues, warnings } = filterHolderReview(config, knowledge.holders);
  for (const issue of issues) out.problem(issue);
  for (const warning of warnings) out.warn(`${warning.path}: ${warning.message}`);
  if (gaps !== undefined) out.warn(`filter holders not checked against ${gaps}`);
  if (issues.length + warnings.length === 0)
    out.ok(
      `filter holders: each names one of the ${knowledge.holders.length} holders known (${holderSources(knowledge)})`,
    );
}

/** Where the known holders came from, in words. */
function holderSources(knowledge: HolderKnowledge): string {
  const parts: string[] = [];
  if (knowledge.fromUpstream > 0) parts.push('snapshots and event log');
  if (knowledge.registers.length > 0) parts.push(`register ${knowledge.registers.join(', ')}`);
  return parts.join(', ');
}
