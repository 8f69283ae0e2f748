import { ConfigError } from "../config/config-error.js";
import { planFor } from "../jobs/plan-for.js";
import { readRegisterOnce } from "../preflight/holder-sources.js";
import { configIssues } from "../preflight/preflight.js";
import { inspectTopology } from "../preflight/redis-topology.js";
import {
  checkReferences
} from "../preflight/reference-check.js";
import { checkEvictionPolicy, reportEvictionPolicy } from "../state/redis-eviction.js";
import { assertWritable } from "../state/redis-writable.js";
import { RegisterStore } from "../state/register-store.js";
import { reconcileAccess } from "./duties/access-notice.js";
async function preflight(config, source, sources) {
  const problems = configIssues(config);
  if (problems.length > 0) throw new ConfigError(source, problems);
  return checkReferences(config, source, sources);
}
function referenceStores(ctx) {
  const { directory, snapshots, eventLog, logger } = ctx;
  const registers = new RegisterStore(ctx.redis, ctx.prefix);
  return { directory, snapshots, eventLog, logger, registers, readRegister: readRegisterOnce };
}
async function prepareStart(parts, workerOnly) {
  const { ctx, live } = parts;
  const { config } = live.current;
  await assertWritable(ctx.redis, config.redis, ctx.prefix);
  const { watched, fetched, directory } = await parts.preflight(config);
  if (config.upstream !== void 0) await ctx.budget.adoptDeploymentBudget(ctx.prefix);
  if (fetched) await ctx.directory.save(fetched.data, fetched.last_updated, ctx.now());
  live.update({ watched, plan: planFor(config, directory) });
  await reportEvictionPolicy(await checkEvictionPolicy(ctx.redis), ctx);
  await reportTopology(ctx.redis, config.redis, ctx.logger);
  await reconcileAccess(ctx, live.current.fingerprint);
  if (!workerOnly) await parts.syncSchedulers();
}
async function reportTopology(redis, config, logger) {
  try {
    const report = await inspectTopology(redis, config);
    logger.info({ topology: report.topology, nodes: report.nodes }, `redis ${report.summary}`);
    for (const warning of report.warnings) logger.warn({ topology: report.topology }, warning);
  } catch (error) {
    logger.warn({ err: error }, "could not inspect the redis topology");
  }
}
export {
  preflight,
  prepareStart,
  referenceStores
};
