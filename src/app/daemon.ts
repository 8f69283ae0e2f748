import { hostname } from 'node:os';
import type { JobContext } from '../jobs/context.js';
import { reportRolledBack, reportStateLost, settleRolledBack } from '../jobs/state-kept.js';
import type { RedisHealth } from '../ops/redis-health.js';
import { DeploymentLedger } from '../state/deployment-ledger.js';
import { stateKeys } from '../state/keys.js';
import type { RedisClient } from '../state/redis-connection.js';
import { RegisterStore } from '../state/register-store.js';
import { EventLoopDelay } from '../telemetry/event-loop-delay.js';
import { within } from '../time/within.js';
import { DeliveryPath } from './delivery-path.js';
import { accessNotice } from './duties/access-notice.js';
import { BEAT_MS } from './duties/beat.js';
import { accountForChannels, channelAccounting } from './duties/channel-accounting.js';
import { deploymentLedger } from './duties/deployment-ledger.js';
import { directoryFollow } from './duties/directory-follow.js';
import { epochWatch } from './duties/epoch-watch.js';
import { processHeartbeat } from './duties/process-heartbeat.js';
import { rateLimitNotice } from './duties/rate-limit-notice.js';
import { refusalConfirmation } from './duties/refusal-confirmation.js';
import { sharedBudget } from './duties/shared-budget.js';
import { sourceStaleness } from './duties/source-staleness.js';
import { subscriberDigests } from './duties/subscriber-digests.js';
import { type Duty, DutyScheduler } from './duty-scheduler.js';
import type { LiveSettings } from './live-settings.js';
import type { Poller } from './poller.js';
import { StateMarkWatch } from './state-mark-watch.js';

/** What the running daemon is wired from. */
interface DaemonParts {
  ctx: JobContext;
  live: LiveSettings;
  poller: Poller;
  health: RedisHealth;
  redis: RedisClient;
  connectionName: string;
  /** `shortwatch worker`: workers only, no schedulers. */
  workerOnly: boolean;
  /** Upserts the job schedulers for the settings in force. */
  syncSchedulers: () => Promise<void>;
  /** Follows the issuer directory under `watchlist: all` (and upserts the sweep when its interval moved). */
  followDirectory: () => Promise<void>;
}

/**
 * The daemon's running parts in one process: the poller's workers, one deliverer per channel woken
 * through pub/sub, and the duties of the beat. Started after the start's checks passed.
 */
export class Daemon {
  readonly #parts: DaemonParts;
  readonly #deliveries: DeliveryPath;
  readonly #duties: DutyScheduler;
  readonly #markWatch: StateMarkWatch;
  /** This process's event-loop delays from its start (`/metrics`: shortwatch_event_loop_delay_*). */
  readonly eventLoop = new EventLoopDelay();

  constructor(parts: DaemonParts) {
    this.#parts = parts;
    this.#markWatch = new StateMarkWatch(parts.ctx.stateMark, (rollback) =>
      reportRolledBack(parts.ctx, rollback),
    );
    this.#deliveries = new DeliveryPath({
      ctx: parts.ctx,
      health: parts.health,
      commands: parts.redis,
      connectionName: parts.connectionName,
      onDead: (reason) => void parts.poller.declareDead('its delivery path is', reason),
    });
    this.#duties = new DutyScheduler(parts.ctx.logger, BEAT_MS);
    for (const duty of daemonDuties(parts)) this.#duties.register(duty);
  }

  /**
   * Starts workers (the register sources' too), deliverers, their liveness and the beat; `stop` undoes a
   * start cut short too.
   */
  async start(): Promise<void> {
    const { ctx, live, health, poller, workerOnly, redis } = this.#parts;
    this.eventLoop.start();
    // The record of sent messages replaced the old deliveries stream: its up to 25 MB go at the upgrade.
    await redis.unlink(stateKeys(ctx.prefix).retiredDeliveries);
    poller.start();
    await poller.startRegisters(redis, !workerOnly);
    await this.#deliveries.start();
    const { liveness } = live.current.config.redis;
    poller.watch(liveness, redis);
    this.#deliveries.watch(liveness);
    if (!workerOnly) health.onRecovered(() => void resyncAfterOutage(this.#parts));
    await accountForChannels(ctx, live.current.config.channels);
    // The epoch this process runs on: a later beat or sweep that finds another one reports the loss.
    await ctx.epoch.check();
    // Issue 30: the high-water mark this process keeps, read every second (state/state-mark.ts).
    await ctx.stateMark.check();
    this.#markWatch.start();
    await this.#duties.start();
  }

  /** Whether the beat started: only then is this process among its credential's spenders. */
  get beating(): boolean {
    return this.#duties.started;
  }

  /** Whether this process's delivery path still answers (src/ops/delivery-liveness.ts). */
  get deliveryLiveness() {
    return this.#deliveries.liveness;
  }

  /** After a reload: deliverers for the channels configured now, and the register sources' schedulers. */
  async syncChannels(): Promise<void> {
    const { config } = this.#parts.live.current;
    this.#deliveries.sync(config.channels);
    if (!this.#parts.workerOnly) await this.#parts.poller.registers?.sync(config);
  }

  /**
   * Stops the beat (waiting for the one running), the workers' liveness, then workers and deliverers, and
   * leaves the budget's spenders (a process that never beat is not among them).
   */
  async stop(timeoutMs: number): Promise<void> {
    const { poller, ctx, live } = this.#parts;
    this.eventLoop.stop();
    // The deliverers first, beside the rest: their close hands what was sent and not recorded over to a
    // new connection. A stuck process's duty may wait for ever on a frozen connection, and a hand-over
    // queued behind it never ran: the next lease holder sent the message again (the chaos rounds).
    const deliveries = this.#deliveries.close(timeoutMs);
    const quiet = Promise.all([this.#duties.stop(), this.#markWatch.stop(), poller.unwatch()]);
    await within(quiet, timeoutMs, 'stopping the beat').catch(() => undefined);
    await Promise.all([poller.close(timeoutMs), deliveries]);
    await ctx.redis.hdel(stateKeys(ctx.prefix).workers, ctx.processId).catch(() => undefined);
    // Without an upstream this process never joined a ledger's spenders (no `shared-budget` duty).
    if (!this.beating || live.current.config.upstream === undefined) return;
    await ctx.budget.spenders.leave(live.current.config.redis.prefix, ctx.processId).catch(() => undefined);
  }
}

/** The duties of the upstream API (its ledger, access, budget and directory): none without `upstream`. */
const UPSTREAM_DUTIES: ReadonlySet<string> = new Set([
  'deployment-ledger',
  'refusal-confirmation',
  'access-notice',
  'shared-budget',
  'rate-limit-notice',
  'directory-follow',
]);

/**
 * The daemon's periodic duties (docs/architecture.md lists them), each on the beat. Without `upstream`
 * (registers only) the upstream's are left out: a reload neither adds nor removes the upstream
 * (src/app/reload.ts), so the set holds for the process's life.
 */
function daemonDuties(parts: DaemonParts): Duty[] {
  const registersOnly = parts.live.current.config.upstream === undefined;
  return allDuties(parts).filter((duty) => !(registersOnly && UPSTREAM_DUTIES.has(duty.name)));
}

function allDuties(parts: DaemonParts): Duty[] {
  const { ctx, live, workerOnly } = parts;
  const fingerprint = () => live.current.fingerprint;
  return [
    processHeartbeat({ ...processOf(ctx), workerOnly, pid: process.pid, host: hostname() }),
    deploymentLedger({ ledger: new DeploymentLedger(ctx.redis, ctx.prefix), fingerprint }),
    refusalConfirmation({
      access: ctx.access,
      fingerprint,
      probe: () => live.client('probe'),
      logger: ctx.logger,
    }),
    accessNotice(ctx),
    sharedBudget({ ...processOf(ctx), deployment: () => live.current.config.redis.prefix }),
    rateLimitNotice(ctx),
    epochWatch({
      epoch: ctx.epoch,
      schedules: !workerOnly,
      reportLost: (previous) => reportStateLost(ctx, previous, live.current.watched.length),
      resyncSchedulers: parts.syncSchedulers,
      settleRolledBack: () => settleRolledBack(ctx, BEAT_MS),
    }),
    channelAccounting({ parts: ctx, channels: () => live.current.config.channels }),
    directoryFollow({ follow: parts.followDirectory }),
    subscriberDigests({
      version: async () =>
        workerOnly || !live.current.config.subscribers ? undefined : ctx.subscribers.version(),
      syncSchedulers: parts.syncSchedulers,
    }),
    sourceStaleness({
      sources: () => live.current.config.sources,
      store: new RegisterStore(ctx.redis, ctx.prefix),
      notices: ctx.notices,
      now: ctx.now,
      startedAtMs: ctx.now().getTime(),
    }),
  ];
}

/**
 * The parts of a context that name this process, picked one by one: spreading a context would open its
 * queues (a getter), which a start refused by its checks must not.
 */
export function processOf(ctx: JobContext) {
  const { redis, prefix, processId, now, budget, notices } = ctx;
  return { redis, prefix, processId, now, budget, notices };
}

/**
 * After a Redis outage (a failover above all) the sweep's next job may be gone: a write the old master
 * never replicated, or the iteration that was running, left to stalled-job recovery (up to twice its
 * lock). Upserting the schedulers again adds the next job at once; with nothing lost it is a no-op.
 */
async function resyncAfterOutage(parts: Pick<DaemonParts, 'ctx' | 'syncSchedulers'>): Promise<void> {
  try {
    await parts.syncSchedulers();
    parts.ctx.logger.info('job schedulers upserted again after the Redis outage');
  } catch (error) {
    parts.ctx.logger.warn({ err: error }, 'could not upsert the job schedulers after the Redis outage');
  }
}
