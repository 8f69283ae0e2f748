import { ConfigError } from "../config/config-error.js";
import { planFor } from "../jobs/plan-for.js";
import { ledgerRoot } from "../state/keys.js";
import { fingerprintOf } from "../upstream-clients.js";
import { budgetCaps } from "./connections.js";
import { processOf } from "./daemon.js";
import { reconcileAccess } from "./duties/access-notice.js";
import { accountForChannels } from "./duties/channel-accounting.js";
import { recordSpender } from "./duties/shared-budget.js";
import { closeAll } from "./live-settings.js";
async function reloadConfig(parts, config, options) {
  const { ctx, live } = parts;
  if (config.redis.prefix !== live.current.config.redis.prefix) {
    throw new ConfigError("reload", [{ path: "redis.prefix", message: "cannot change without a restart" }]);
  }
  const upstreamChange = upstreamAddedOrRemoved(live.current.config, config);
  if (upstreamChange !== void 0)
    throw new ConfigError("reload", [{ path: "upstream", message: upstreamChange }]);
  const { watched, directory, fetched } = await parts.preflight(config);
  const plan = planFor(config, directory);
  const clients = parts.clients(config);
  let senders;
  try {
    senders = parts.senders(config);
  } catch (error) {
    await closeAll({ clients, senders: /* @__PURE__ */ new Map() });
    throw error;
  }
  const previousFingerprint = live.current.fingerprint;
  const replaced = live.swap(
    { config, plan, watched, ...senders, fingerprint: fingerprintOf(config) },
    clients
  );
  if (fetched) await ctx.directory.save(fetched.data, fetched.last_updated, ctx.now());
  await spendNewBudget(parts, previousFingerprint);
  await reconcileAccess(ctx, live.current.fingerprint);
  if (!options.workerOnly) await parts.syncSchedulers();
  await parts.daemon?.syncChannels();
  await accountForChannels(ctx, config.channels);
  await closeAll(replaced);
}
function upstreamAddedOrRemoved(current, next) {
  if (current.upstream === void 0 === (next.upstream === void 0)) return void 0;
  return current.upstream === void 0 ? "cannot be added without a restart (this process started registers-only: no API sweep, poll workers or budget); restart shortwatch with the new config" : "cannot be removed without a restart (this process runs the API sweep, poll workers and budget); restart shortwatch with the new config";
}
async function spendNewBudget(parts, previousFingerprint) {
  const { ctx, live } = parts;
  const { config, fingerprint } = live.current;
  const spentBefore = ctx.budget.spenders;
  ctx.budget.configure({ ledger: ledgerRoot(fingerprint), ...budgetCaps(config) });
  if (!parts.daemon?.beating || fingerprint === previousFingerprint || config.upstream === void 0) return;
  await spentBefore.leave(config.redis.prefix, ctx.processId).catch(() => void 0);
  await recordSpender({ ...processOf(ctx), deployment: config.redis.prefix }).catch(() => void 0);
}
export {
  reloadConfig
};
