import { hostname } from "node:os";
import { reportRolledBack, reportStateLost, settleRolledBack } from "../jobs/state-kept.js";
import { DeploymentLedger } from "../state/deployment-ledger.js";
import { stateKeys } from "../state/keys.js";
import { RegisterStore } from "../state/register-store.js";
import { DeliveryPath } from "./delivery-path.js";
import { accessNotice } from "./duties/access-notice.js";
import { BEAT_MS } from "./duties/beat.js";
import { accountForChannels, channelAccounting } from "./duties/channel-accounting.js";
import { deploymentLedger } from "./duties/deployment-ledger.js";
import { directoryFollow } from "./duties/directory-follow.js";
import { epochWatch } from "./duties/epoch-watch.js";
import { processHeartbeat } from "./duties/process-heartbeat.js";
import { rateLimitNotice } from "./duties/rate-limit-notice.js";
import { refusalConfirmation } from "./duties/refusal-confirmation.js";
import { sharedBudget } from "./duties/shared-budget.js";
import { sourceStaleness } from "./duties/source-staleness.js";
import { subscriberDigests } from "./duties/subscriber-digests.js";
import { DutyScheduler } from "./duty-scheduler.js";
import { StateMarkWatch } from "./state-mark-watch.js";
class Daemon {
  #parts;
  #deliveries;
  #duties;
  #markWatch;
  constructor(parts) {
    this.#parts = parts;
    this.#markWatch = new StateMarkWatch(
      parts.ctx.stateMark,
      (rollback) => reportRolledBack(parts.ctx, rollback)
    );
    this.#deliveries = new DeliveryPath({
      ctx: parts.ctx,
      health: parts.health,
      commands: parts.redis,
      connectionName: parts.connectionName,
      onDead: (reason) => void parts.poller.declareDead("its delivery path is", reason)
    });
    this.#duties = new DutyScheduler(parts.ctx.logger, BEAT_MS);
    for (const duty of daemonDuties(parts)) this.#duties.register(duty);
  }
  /**
   * Starts workers (the register sources' too), deliverers, their liveness and the beat; `stop` undoes a
   * start cut short too.
   */
  async start() {
    const { ctx, live, health, poller, workerOnly, redis } = this.#parts;
    await redis.unlink(stateKeys(ctx.prefix).retiredDeliveries);
    poller.start();
    await poller.startRegisters(redis, !workerOnly);
    await this.#deliveries.start();
    const { liveness } = live.current.config.redis;
    poller.watch(liveness, redis);
    this.#deliveries.watch(liveness);
    if (!workerOnly) health.onRecovered(() => void resyncAfterOutage(this.#parts));
    await accountForChannels(ctx, live.current.config.channels);
    await ctx.epoch.check();
    await ctx.stateMark.check();
    this.#markWatch.start();
    await this.#duties.start();
  }
  /** Whether the beat started: only then is this process among its credential's spenders. */
  get beating() {
    return this.#duties.started;
  }
  /** Whether this process's delivery path still answers (src/ops/delivery-liveness.ts). */
  get deliveryLiveness() {
    return this.#deliveries.liveness;
  }
  /** After a reload: deliverers for the channels configured now, and the register sources' schedulers. */
  async syncChannels() {
    const { config } = this.#parts.live.current;
    this.#deliveries.sync(config.channels);
    if (!this.#parts.workerOnly) await this.#parts.poller.registers?.sync(config);
  }
  /**
   * Stops the beat (waiting for the one running), the workers' liveness, then workers and deliverers, and
   * leaves the budget's spenders (a process that never beat is not among them).
   */
  async stop(timeoutMs) {
    const { poller, ctx, live } = this.#parts;
    await this.#duties.stop();
    await this.#markWatch.stop();
    await poller.unwatch();
    await Promise.all([poller.close(timeoutMs), this.#deliveries.close(timeoutMs)]);
    await ctx.redis.hdel(stateKeys(ctx.prefix).workers, ctx.processId).catch(() => void 0);
    if (!this.beating || live.current.config.upstream === void 0) return;
    await ctx.budget.spenders.leave(live.current.config.redis.prefix, ctx.processId).catch(() => void 0);
  }
}
const UPSTREAM_DUTIES = /* @__PURE__ */ new Set([
  "deployment-ledger",
  "refusal-confirmation",
  "access-notice",
  "shared-budget",
  "rate-limit-notice",
  "directory-follow"
]);
function daemonDuties(parts) {
  const registersOnly = parts.live.current.config.upstream === void 0;
  return allDuties(parts).filter((duty) => !(registersOnly && UPSTREAM_DUTIES.has(duty.name)));
}
function allDuties(parts) {
  const { ctx, live, workerOnly } = parts;
  const fingerprint = () => live.current.fingerprint;
  return [
    processHeartbeat({ ...processOf(ctx), workerOnly, pid: process.pid, host: hostname() }),
    deploymentLedger({ ledger: new DeploymentLedger(ctx.redis, ctx.prefix), fingerprint }),
    refusalConfirmation({
      access: ctx.access,
      fingerprint,
      probe: () => live.client("probe"),
      logger: ctx.logger
    }),
    accessNotice(ctx),
    sharedBudget({ ...processOf(ctx), deployment: () => live.current.config.redis.prefix }),
    rateLimitNotice(ctx),
    epochWatch({
      epoch: ctx.epoch,
      schedules: !workerOnly,
      reportLost: (previous) => reportStateLost(ctx, previous, live.current.watched.length),
      resyncSchedulers: parts.syncSchedulers,
      settleRolledBack: () => settleRolledBack(ctx, BEAT_MS)
    }),
    channelAccounting({ parts: ctx, channels: () => live.current.config.channels }),
    directoryFollow({ follow: parts.followDirectory }),
    subscriberDigests({
      version: async () => workerOnly || !live.current.config.subscribers ? void 0 : ctx.subscribers.version(),
      syncSchedulers: parts.syncSchedulers
    }),
    sourceStaleness({
      sources: () => live.current.config.sources,
      store: new RegisterStore(ctx.redis, ctx.prefix),
      notices: ctx.notices,
      now: ctx.now,
      startedAtMs: ctx.now().getTime()
    })
  ];
}
function processOf(ctx) {
  const { redis, prefix, processId, now, budget, notices } = ctx;
  return { redis, prefix, processId, now, budget, notices };
}
async function resyncAfterOutage(parts) {
  try {
    await parts.syncSchedulers();
    parts.ctx.logger.info("job schedulers upserted again after the Redis outage");
  } catch (error) {
    parts.ctx.logger.warn({ err: error }, "could not upsert the job schedulers after the Redis outage");
  }
}
export {
  Daemon,
  processOf
};
