import { ConfigError } from '../config/config-error.js';
import type { Config } from '../config/schema.js';
import type { JobContext } from '../jobs/context.js';
import { planFor } from '../jobs/plan-for.js';
import { readRegisterOnce } from '../preflight/holder-sources.js';
import { configIssues } from '../preflight/preflight.js';
import { inspectTopology } from '../preflight/redis-topology.js';
import {
  checkReferences,
  type ReferenceSources,
  type ReferencesAccepted,
} from '../preflight/reference-check.js';
import type { RedisClient } from '../state/redis-connection.js';
import { checkEvictionPolicy, reportEvictionPolicy } from '../state/redis-eviction.js';
import { assertWritable } from '../state/redis-writable.js';
import { RegisterStore } from '../state/register-store.js';
import type { Logger } from '../telemetry/logger.js';
import { reconcileAccess } from './duties/access-notice.js';
import type { LiveSettings } from './live-settings.js';

/**
 * The checks a start or a reload shares with `shortwatch check`, writing nothing: the config's own
 * problems, then its references (preflight/reference-check.ts: the issuer directory, stored holders).
 */
export async function preflight(
  config: Config,
  source: string,
  sources: ReferenceSources,
): Promise<ReferencesAccepted> {
  const problems = configIssues(config);
  if (problems.length > 0) throw new ConfigError(source, problems);
  return checkReferences(config, source, sources);
}

/**
 * The stores the reference checks read, from a process's context (picked: a context's queues are a
 * getter), the register sources' stored reads, and a register read once when none is stored.
 */
export function referenceStores(
  ctx: Pick<JobContext, 'directory' | 'snapshots' | 'eventLog' | 'logger' | 'redis' | 'prefix'>,
) {
  const { directory, snapshots, eventLog, logger } = ctx;
  const registers = new RegisterStore(ctx.redis, ctx.prefix);
  return { directory, snapshots, eventLog, logger, registers, readRegister: readRegisterOnce };
}

/** What a start checks and registers before its daemon runs. */
interface StartParts {
  ctx: JobContext;
  live: LiveSettings;
  preflight: (config: Config) => Promise<ReferencesAccepted>;
  /** Upserts the job schedulers for the settings in force. */
  syncSchedulers: () => Promise<void>;
}

/**
 * A start's checks (a problem is a ConfigError naming its key, thrown before anything is registered),
 * then what the daemon registers and reports before its workers run: the deployment's budget (none without
 * `upstream`), the issuer list the check read, Redis' eviction policy and topology, the access record (a
 * revocation of another credential's, or of an upstream since removed, is cleared) and the schedulers.
 */
export async function prepareStart(parts: StartParts, workerOnly: boolean): Promise<void> {
  const { ctx, live } = parts;
  const { config } = live.current;
  // Before any check that writes: a replica, a full Redis or a user without rights is named here, at once.
  await assertWritable(ctx.redis, config.redis, ctx.prefix);
  const { watched, fetched, directory } = await parts.preflight(config);
  // Checked: from here on the daemon registers itself.
  if (config.upstream !== undefined) await ctx.budget.adoptDeploymentBudget(ctx.prefix);
  if (fetched) await ctx.directory.save(fetched.data, fetched.last_updated, ctx.now());
  live.update({ watched, plan: planFor(config, directory) });
  // Evictions would silently drop snapshots and outbox items: say so at every start.
  await reportEvictionPolicy(await checkEvictionPolicy(ctx.redis), ctx);
  await reportTopology(ctx.redis, config.redis, ctx.logger);
  await reconcileAccess(ctx, live.current.fingerprint);
  if (!workerOnly) await parts.syncSchedulers();
}

/** The topology reached and what would lose data (no persistence, no replica): logged at every start. */
async function reportTopology(redis: RedisClient, config: Config['redis'], logger: Logger): Promise<void> {
  try {
    const report = await inspectTopology(redis, config);
    logger.info({ topology: report.topology, nodes: report.nodes }, `redis ${report.summary}`);
    for (const warning of report.warnings) logger.warn({ topology: report.topology }, warning);
  } catch (error) {
    logger.warn({ err: error }, 'could not inspect the redis topology');
  }
}
