import { hostname } from 'node:os';
import type { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { ACCESS_REVOKED_NOTICE } from './budget/access-state.js';
import { AccessState, RateBudget } from './budget/index.js';
import { reportSharedBudget } from './budget/shared-budget.js';
import { channelRegistry, createSender } from './channels/registry.js';
import type { ChannelSender } from './channels/types.js';
import { ConfigError } from './config/config-error.js';
import type { ChannelConfig, Config } from './config/schema.js';
import { deliveryContext } from './delivery/delivery-context.js';
import { DeliverySet } from './delivery/delivery-set.js';
import { recordedSender } from './delivery/recorded-sender.js';
import { retireChannel } from './delivery/retire-channel.js';
import type { JobContext, Settings } from './jobs/context.js';
import { DirectoryFollower } from './jobs/directory-follower.js';
import { planFor } from './jobs/plan-for.js';
import { QueueSet } from './jobs/queue-set.js';
import { RegisterDaemon } from './jobs/registers/register-daemon.js';
import { sweepEvery, syncSchedulers } from './jobs/schedulers.js';
import { reportStateLost } from './jobs/state-kept.js';
import { WorkerSet } from './jobs/workers.js';
import { DeliveryLiveness } from './ops/delivery-liveness.js';
import { RedisHealth } from './ops/redis-health.js';
import { type LivenessReport, WorkerLiveness } from './ops/worker-liveness.js';
import { configIssues } from './preflight/preflight.js';
import { inspectTopology } from './preflight/redis-topology.js';
import { checkReferences, type ReferencesAccepted } from './preflight/reference-check.js';
import { ChannelRegistry } from './state/channel-registry.js';
import { DeliveryRecord } from './state/delivery-record.js';
import { DeploymentLedger } from './state/deployment-ledger.js';
import { IssuerDirectory } from './state/directory.js';
import { StateEpoch } from './state/epoch.js';
import { EventLog } from './state/event-log.js';
import { keyRoot, ledgerRoot, stateKeys } from './state/keys.js';
import { MuteStore } from './state/mute-store.js';
import { noticeChannels } from './state/notice-routing.js';
import { Notices } from './state/notices.js';
import { Outbox } from './state/outbox.js';
import { PollHealth } from './state/poll-health.js';
import { connectWithin, openRedis, type RedisClient } from './state/redis-connection.js';
import { redisErrorFields } from './state/redis-error-fields.js';
import { checkEvictionPolicy, reportEvictionPolicy } from './state/redis-eviction.js';
import { SnapshotStore } from './state/snapshot-store.js';
import type { Logger } from './telemetry/logger.js';
import { createMetrics, type Metrics } from './telemetry/metrics.js';
import { unavailableClient, unavailableSender, unlessSecretUnread } from './unread-secret-parts.js';
import type { UpstreamClient } from './upstream/index.js';
import {
  buildUpstreamClients,
  type ClientRole,
  fingerprintOf,
  RATE_LIMIT_LIFTED,
  RATE_LIMITED_NOTICE,
} from './upstream-clients.js';
import { talliedClients } from './upstream-tally.js';

export { planFor } from './jobs/plan-for.js';
export type { ClientRole } from './upstream-clients.js';

/**
 * The fingerprint of a config whose API key could not be read (a command that sends nothing was loaded
 * without it): no client can send without the key, and no daemon starts without it (see startDaemon).
 */
const UNREAD_KEY_FINGERPRINT = 'unread-key';

/** The notice a process raises as it exits because its workers or its delivery path stay stuck. */
const PROCESS_STUCK_NOTICE = 'process-stuck';

/** How an App is built; everything from outside is passed in. */
export interface AppOptions {
  logger: Logger;
  now?: () => Date;
  /** Where console channels write; stdout by default. */
  consoleOut?: Writable;
  /** The config file, named by the config errors a refused start reports. */
  configFile?: string;
}

/**
 * The parts of shortwatch built from one config, sharing one Redis: every state lives there, so any
 * number of processes cooperate. `startDaemon` adds workers (and schedulers); CLI commands use the parts.
 */
export class App {
  readonly ctx: JobContext;
  readonly metrics: Metrics;
  readonly redis: RedisClient;
  #workerRedis: RedisClient;
  readonly #health: RedisHealth;
  readonly #options: AppOptions;
  #settings: Settings;
  #clients: Record<ClientRole, UpstreamClient>;
  #workers: WorkerSet | undefined;
  #deliveries: DeliverySet | undefined;
  /** The whole-register sources (issue 24): their own queue and worker, beside the API's. */
  #registers: RegisterDaemon | undefined;
  #beat: NodeJS.Timeout | undefined;
  /** The beat running now: `stop()` waits for it, so that nothing it writes lands after the leave. */
  #beating: Promise<void> | undefined;
  #queues: QueueSet | undefined;
  readonly #processId = `${hostname()}-${process.pid}`;
  /** The name every connection of this process carries in `CLIENT LIST`, with its purpose appended. */
  readonly #connectionName: string;
  #liveness: WorkerLiveness | undefined;
  #deliveryLiveness: DeliveryLiveness | undefined;
  readonly #deadListeners: Array<(reason: string) => void> = [];
  /** Under `watchlist: all`: the watched set and the plan follow the issuer list the sweeps save. */
  readonly #follower: DirectoryFollower;

  private constructor(
    config: Config,
    options: AppOptions,
    redis: RedisClient,
    workerRedis: RedisClient,
    health: RedisHealth,
    ledger: string,
  ) {
    const now = options.now ?? (() => new Date());
    const prefix = keyRoot(config.redis.prefix);
    this.#options = options;
    this.redis = redis;
    this.#workerRedis = workerRedis;
    this.#connectionName = connectionNameOf(config);
    this.#health = health;
    this.metrics = createMetrics();
    const nowMs = () => now().getTime();
    const budget = new RateBudget(redis, { ledger: ledgerRoot(ledger), ...budgetCaps(config) }, nowMs);
    const access = new AccessState(redis, prefix, nowMs);
    this.#settings = {
      config,
      plan: planFor(config),
      watched: [],
      senders: new Map(),
      fingerprint: unlessSecretUnread(
        () => fingerprintOf(config),
        () => UNREAD_KEY_FINGERPRINT,
      ),
    };
    const notices = new Notices(redis, prefix, {
      logger: options.logger,
      now,
      opsChannel: () => this.#settings.config.ops.channel,
      channelsFor: (severity) => noticeChannels(this.#settings.config, severity),
    });
    const queues = () => this.queues;
    this.ctx = {
      settings: () => this.#settings,
      prefix,
      processId: this.#processId,
      redis,
      now,
      logger: options.logger,
      metrics: this.metrics,
      upstream: this.#delegate('polling'),
      probe: this.#delegate('probe'),
      budget,
      access,
      snapshots: new SnapshotStore(redis, prefix),
      pollHealth: new PollHealth(redis, prefix),
      epoch: new StateEpoch(redis, prefix),
      eventLog: new EventLog(redis, prefix),
      directory: new IssuerDirectory(redis, prefix),
      mutes: new MuteStore(redis, prefix, nowMs),
      notices,
      outbox: new Outbox(redis, prefix),
      channels: new ChannelRegistry(redis, prefix),
      get queues() {
        return queues();
      },
    };
    this.#clients = unlessSecretUnread(
      () => this.#buildClients(config),
      (error) => ({
        polling: unavailableClient(error),
        probe: unavailableClient(error),
        interactive: unavailableClient(error),
      }),
    );
    this.#settings = { ...this.#settings, senders: this.#buildSenders(config) };
    this.#follower = new DirectoryFollower(this.ctx);
  }

  /**
   * The BullMQ queues, opened on first use: a queue writes its meta key as it opens, and a start refused
   * by its checks must leave Redis as it found it.
   */
  get queues(): QueueSet {
    if (this.#queues === undefined) {
      this.#queues = new QueueSet(this.redis, this.ctx.prefix);
      for (const queue of this.#queues.all()) this.#health.watchBull(`queue:${queue.name}`, queue);
    }
    return this.#queues;
  }

  /** Connects to Redis and builds every part; fails fast when Redis does not answer. */
  static async open(config: Config, options: AppOptions): Promise<App> {
    // Named so that `CLIENT LIST` tells which deployment and process owns each connection.
    const name = connectionNameOf(config);
    const redis = openRedis(config.redis, { purpose: 'commands', name: `${name}:app` });
    const workerRedis = openRedis(config.redis, { purpose: 'jobs', name: `${name}:jobs` });
    // Without a listener ioredis prints reconnect errors itself, possibly with the URL. A Redis that does
    // not answer at start is the caller's error to report (RedisUnavailableError), not an outage to log.
    const quiet = (error: Error) => options.logger.debug({ error: redisErrorFields(error) }, 'redis connect');
    for (const client of [redis, workerRedis]) client.on('error', quiet);
    try {
      await Promise.all([redis, workerRedis].map((client) => connectWithin(client, 10_000)));
    } catch (error) {
      redis.disconnect();
      workerRedis.disconnect();
      throw new RedisUnavailableError(error instanceof Error ? error.message : String(error));
    }
    for (const client of [redis, workerRedis]) client.off('error', quiet);
    const health = new RedisHealth(options.logger);
    health.watchClient('app', redis);
    health.watchClient('jobs', workerRedis);
    try {
      const app = new App(config, options, redis, workerRedis, health, await ledgerOf(config, redis));
      // A command's plan under `watchlist: all` is the one for the list the sweeps saved.
      await app.#followDirectory('command');
      return app;
    } catch (error) {
      redis.disconnect();
      workerRedis.disconnect();
      throw error;
    }
  }

  /** Whether this process's BullMQ workers still take jobs (src/ops/worker-liveness.ts); undefined in a CLI. */
  get liveness(): LivenessReport | undefined {
    return this.#liveness?.report();
  }

  /** Whether this process's delivery path still answers (src/ops/delivery-liveness.ts); undefined in a CLI. */
  get deliveryLiveness(): LivenessReport | undefined {
    return this.#deliveryLiveness?.report();
  }

  /** Calls `listener` when the workers stay stuck after their connections were recreated: exit non-zero. */
  onWorkersDead(listener: (reason: string) => void): void {
    this.#deadListeners.push(listener);
  }

  /** The topology reached and what would lose data (no persistence, no replica): logged at every start. */
  async #reportTopology(): Promise<void> {
    const { logger } = this.ctx;
    try {
      const report = await inspectTopology(this.redis, this.#settings.config.redis);
      logger.info({ topology: report.topology, nodes: report.nodes }, `redis ${report.summary}`);
      for (const warning of report.warnings) logger.warn({ topology: report.topology }, warning);
    } catch (error) {
      logger.warn({ err: error }, 'could not inspect the redis topology');
    }
  }

  /**
   * After a Redis outage (a failover above all) the sweep's next job may be gone: a write the old master
   * never replicated, or the iteration that was running, left to stalled-job recovery (up to twice its
   * lock). Upserting the schedulers again adds the next job at once; with nothing lost it is a no-op.
   */
  async #resyncSchedulers(): Promise<void> {
    const { config, plan } = this.#settings;
    try {
      await syncSchedulers(this.queues, config, plan);
      this.ctx.logger.info('job schedulers upserted again after the Redis outage');
    } catch (error) {
      this.ctx.logger.warn({ err: error }, 'could not upsert the job schedulers after the Redis outage');
    }
  }

  #startLiveness(): void {
    const { liveness } = this.#settings.config.redis;
    this.#liveness = new WorkerLiveness({
      root: this.ctx.prefix,
      processId: this.#processId,
      intervalMs: liveness.interval,
      timeoutMs: liveness.timeout,
      commands: this.redis,
      jobs: this.#workerRedis,
      logger: this.ctx.logger,
      now: () => this.ctx.now().getTime(),
      workers: () => [...(this.#workers?.all() ?? []), ...(this.#registers?.all() ?? [])],
      recreate: () => this.#recreateWorkers(),
      onDead: (reason) => void this.#workersDead('its BullMQ workers are', reason),
      watch: (name, emitter) => this.#health.watchBull(name, emitter),
    });
    this.#liveness.start();
    this.#deliveryLiveness = new DeliveryLiveness({
      processId: this.#processId,
      intervalMs: liveness.interval,
      timeoutMs: liveness.timeout,
      commands: this.redis,
      wakeTopic: this.ctx.outbox.wakeChannel,
      deliveries: () => this.#deliveries,
      recreate: () => this.#recreateDeliveries(),
      onDead: (reason) => void this.#workersDead('its delivery path is', reason),
      onAlive: () =>
        void this.ctx.notices
          .clear(
            PROCESS_STUCK_NOTICE,
            `Process ${this.#processId} runs with its workers and deliverers alive.`,
          )
          .catch(() => undefined),
      logger: this.ctx.logger,
      now: () => this.ctx.now().getTime(),
    });
    this.#deliveryLiveness.start();
  }

  /**
   * Workers or deliverers stayed stuck after their connections were recreated (`what`: `its … is`): tells the operator (the
   * critical `process-stuck` notice, bounded: Redis may be part of the problem), then asks the process to
   * exit non-zero so that its supervisor restarts it.
   */
  async #workersDead(what: string, reason: string): Promise<void> {
    const told = this.ctx.notices.raise(
      PROCESS_STUCK_NOTICE,
      'critical',
      `A shortwatch process exits: ${what} stuck`,
      `${this.#processId}: ${reason}, after its Redis connections were recreated once. It exits 1 for its supervisor to restart it; cleared when a process runs with its workers and deliverers alive.`,
    );
    await Promise.race([told.catch(() => undefined), sleep(2_000)]);
    for (const listener of this.#deadListeners) listener(reason);
  }

  /** The delivery path on connections of its own: the deliverers' outbox connection and the wake-up subscriber. */
  async #startDeliveries(): Promise<DeliverySet> {
    const { redis } = this.#settings.config;
    const connection = openRedis(redis, { purpose: 'commands', name: `${this.#connectionName}:deliver` });
    const wake = openRedis(redis, { purpose: 'subscriber', name: `${this.#connectionName}:wake` });
    this.#health.watchClient('deliver', connection);
    this.#health.watchClient('wake', wake);
    const deliveries = new DeliverySet(deliveryContext(this.ctx, connection), wake);
    await deliveries.start();
    return deliveries;
  }

  /** Replaces a stuck delivery path: the old set's connections cut, a new set on new ones. */
  async #recreateDeliveries(): Promise<void> {
    const stuck = this.#deliveries;
    this.#deliveries = undefined;
    await stuck?.abandon(2_000);
    this.#deliveries = await this.#startDeliveries();
  }

  /**
   * Closes the BullMQ workers and their job connection (bounded: a stuck connection may never answer a
   * close) and starts them again on a new one; the new connection is returned for the probe worker.
   */
  async #recreateWorkers(): Promise<RedisClient> {
    const closing = this.#workers?.close(0) ?? Promise.resolve();
    await Promise.race([closing.catch(() => undefined), sleep(5_000)]);
    this.#workerRedis.disconnect();
    this.#workerRedis = openRedis(this.#settings.config.redis, {
      purpose: 'jobs',
      name: `${this.#connectionName}:jobs`,
    });
    this.#health.watchClient('jobs', this.#workerRedis);
    this.#workers = new WorkerSet(this.ctx, this.#workerRedis);
    this.#workers.start();
    for (const worker of this.#workers.all()) this.#health.watchBull(`worker:${worker.name}`, worker);
    await this.#registers?.restart(this.#workerRedis);
    for (const worker of this.#registers?.all() ?? []) this.#health.watchBull('worker:register', worker);
    return this.#workerRedis;
  }

  /** The register sources of a running daemon (undefined before `startDaemon`). */
  get registers(): RegisterDaemon | undefined {
    return this.#registers;
  }

  /** The current settings (config, plan, watchlist, senders). */
  get settings(): Settings {
    return this.#settings;
  }

  /** An upstream client following the given budget rules. */
  client(role: ClientRole): UpstreamClient {
    return this.#clients[role];
  }

  /**
   * Runs the daemon in this process: workers always; schedulers too unless `workerOnly`. First the checks
   * `shortwatch check` makes too (preflight/preflight.ts): a problem is a {@link ConfigError} naming its
   * key, thrown before anything is registered.
   */
  async startDaemon(options: { workerOnly: boolean }): Promise<void> {
    const { watched, fetched, directory } = await this.#preflight();
    // Checked: from here on the daemon registers itself.
    await this.ctx.budget.adoptDeploymentBudget(this.ctx.prefix);
    // The record of sent messages replaced the old deliveries stream: its up to 25 MB go at the upgrade.
    await this.redis.unlink(stateKeys(this.ctx.prefix).retiredDeliveries);
    if (fetched) await this.ctx.directory.save(fetched.data, fetched.last_updated, this.ctx.now());
    this.#settings = { ...this.#settings, watched, plan: planFor(this.#settings.config, directory) };
    // Evictions would silently drop snapshots and outbox items: say so at every start.
    await reportEvictionPolicy(await checkEvictionPolicy(this.redis), this.ctx);
    await this.#reportTopology();
    await this.#reconcileAccess();
    if (!options.workerOnly) await syncSchedulers(this.queues, this.#settings.config, this.#settings.plan);
    this.#workers = new WorkerSet(this.ctx, this.#workerRedis);
    this.#workers.start();
    for (const worker of this.#workers.all()) this.#health.watchBull(`worker:${worker.name}`, worker);
    // Register sources: a hook kept to these lines (src/jobs/registers/ holds the rest).
    this.#registers = new RegisterDaemon(this.ctx, { commands: this.redis, jobs: this.#workerRedis });
    await this.#registers.start({ schedule: !options.workerOnly });
    for (const worker of this.#registers.all()) this.#health.watchBull('worker:register', worker);
    this.#deliveries = await this.#startDeliveries();
    this.#startLiveness();
    if (!options.workerOnly) this.#health.onRecovered(() => void this.#resyncSchedulers());
    await this.#accountForChannels();
    // The epoch this process runs on: a later beat or sweep that finds another one reports the loss.
    await this.ctx.epoch.check();
    await this.#beatOnce(options.workerOnly);
    this.#beat = setInterval(() => {
      this.#beating ??= this.#beatOnce(options.workerOnly).finally(() => {
        this.#beating = undefined;
      });
    }, 10_000).unref();
  }

  /** Swaps in a new config without a restart: watchlist, channels, plan, schedulers. */
  async reload(config: Config, options: { workerOnly: boolean }): Promise<void> {
    if (config.redis.prefix !== this.#settings.config.redis.prefix) {
      throw new ConfigError('reload', [{ path: 'redis.prefix', message: 'cannot change without a restart' }]);
    }
    // Whole or not at all: everything that can fail is checked and built before anything running changes.
    const { watched, directory, fetched } = await this.#preflight(config);
    const plan = planFor(config, directory);
    const clients = this.#buildClients(config);
    let senders: Map<string, ChannelSender>;
    try {
      senders = this.#buildSenders(config);
    } catch (error) {
      await Promise.all(Object.values(clients).map((c) => c.close().catch(() => undefined)));
      throw error;
    }
    const oldSenders = this.#settings.senders;
    const previousFingerprint = this.#settings.fingerprint;
    const oldClients = this.#clients;
    this.#clients = clients;
    this.#settings = {
      config,
      plan,
      watched,
      senders,
      fingerprint: fingerprintOf(config),
    };
    if (fetched) await this.ctx.directory.save(fetched.data, fetched.last_updated, this.ctx.now());
    const spentBefore = this.ctx.budget.spenders;
    this.ctx.budget.configure({ ledger: ledgerRoot(this.#settings.fingerprint), ...budgetCaps(config) });
    if (this.#beat && this.#settings.fingerprint !== previousFingerprint) {
      // Another key: this process spends another budget from now on. It leaves the old one's record at
      // once (deployments still on the old key stop counting it) and beats in the new one.
      await spentBefore.leave(config.redis.prefix, this.#processId).catch(() => undefined);
      await this.#noticeSharedBudget().catch(() => undefined);
    }
    await this.#reconcileAccess();
    if (!options.workerOnly) await syncSchedulers(this.queues, config, plan);
    if (!options.workerOnly) await this.#registers?.sync(config);
    this.#deliveries?.sync(config.channels);
    await this.#accountForChannels();
    await Promise.all([...oldSenders.values()].map((s) => s.close().catch(() => undefined)));
    await Promise.all(Object.values(oldClients).map((c) => c.close().catch(() => undefined)));
  }

  /**
   * Registers the configured channels, and parks the queued work of every channel that left the config
   * (see delivery/retire-channel.ts), telling the operator once; a removed channel with nothing left is
   * forgotten. Runs at start, at each reload and at each beat (a process still on the old config may hold
   * a removed channel's lease for a while).
   */
  async #accountForChannels(): Promise<void> {
    const { channels: configured } = this.#settings.config;
    await this.ctx.channels.register(configured);
    const wanted = new Set(configured.map((c) => c.name));
    // One read of the active notices, not one per channel at every beat.
    const active = new Set((await this.ctx.notices.list()).map((n) => n.key));
    for (const name of await this.ctx.channels.names()) {
      if (wanted.has(name)) {
        if (active.has(`channel-removed-${name}`))
          await this.ctx.notices.clear(`channel-removed-${name}`, `Channel ${name} is configured again.`);
        continue;
      }
      const retired = await retireChannel(this.ctx, name);
      if (retired === 'busy') continue;
      const parked = (await this.ctx.outbox.parked(name)).length;
      if (parked === 0 && retired.staged === 0) {
        await this.ctx.notices.clear(`channel-removed-${name}`, `Nothing is left queued for ${name}.`);
        await this.ctx.channels.forget(name);
        continue;
      }
      await this.ctx.notices.raise(
        `channel-removed-${name}`,
        'warning',
        `Channel ${name} was removed with messages still queued`,
        `${parked} messages for ${name} are parked (\`shortwatch deliveries --failed\`) and ${retired.staged} digest events stay staged. Add the channel back and run \`shortwatch deliveries retry --all --channel ${name}\` to send them.`,
      );
    }
  }

  /** Stops workers (finishing jobs in flight up to `timeoutMs`), then closes queues, senders and Redis. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (this.#beat) clearInterval(this.#beat);
    await this.#beating;
    await this.#liveness?.stop();
    this.#deliveryLiveness?.stop();
    await Promise.all([
      this.#workers?.close(timeoutMs),
      this.#deliveries?.close(timeoutMs),
      this.#registers?.close(timeoutMs),
    ]);
    await this.redis.hdel(stateKeys(this.ctx.prefix).workers, this.#processId).catch(() => undefined);
    if (this.#beat) {
      await this.ctx.budget.spenders
        .leave(this.#settings.config.redis.prefix, this.#processId)
        .catch(() => undefined);
    }
    await this.#queues?.close();
    await Promise.all([...this.#settings.senders.values()].map((s) => s.close().catch(() => undefined)));
    await Promise.all(Object.values(this.#clients).map((c) => c.close().catch(() => undefined)));
    await Promise.all([this.redis.quit(), this.#workerRedis.quit()].map((p) => p.catch(() => undefined)));
  }

  /**
   * The checks a start or a reload shares with `shortwatch check`, writing nothing: the config's own
   * problems, then its references (preflight/reference-check.ts: the issuer directory, stored holders).
   */
  async #preflight(config: Config = this.#settings.config): Promise<ReferencesAccepted> {
    const source = this.#options.configFile ?? 'config';
    const problems = configIssues(config);
    if (problems.length > 0) throw new ConfigError(source, problems);
    return checkReferences(config, source, {
      directory: this.ctx.directory,
      snapshots: this.ctx.snapshots,
      eventLog: this.ctx.eventLog,
      listIssuers: () => this.client('polling').listIssuers(),
      logger: this.ctx.logger,
    });
  }

  /**
   * Under `watchlist: all`, takes the watched set and the plan of the issuer list saved since the last
   * look (see jobs/directory-follower.ts); a `start` process upserts the sweep again when its interval moved.
   */
  async #followDirectory(role: 'command' | 'worker' | 'start'): Promise<void> {
    const next = await this.#follower.follow(this.#settings, { report: role !== 'command' });
    if (next === undefined) return;
    const interval = sweepEvery(this.#settings.plan);
    this.#settings = { ...this.#settings, ...next };
    if (role === 'start' && sweepEvery(next.plan) !== interval) {
      await syncSchedulers(this.queues, this.#settings.config, next.plan);
    }
  }

  async #reconcileAccess(): Promise<void> {
    if (await this.ctx.access.reconcile(this.#settings.fingerprint)) {
      await this.ctx.notices.clear('access-revoked', 'The upstream key or URL changed; polling resumes.');
    }
  }

  async #beatOnce(workerOnly: boolean): Promise<void> {
    const role = workerOnly ? 'worker' : 'start';
    const record = { role, pid: process.pid, host: hostname(), seenAt: this.ctx.now().toISOString() };
    await this.redis
      .hset(stateKeys(this.ctx.prefix).workers, this.#processId, JSON.stringify(record))
      .catch(() => undefined);
    await new DeploymentLedger(this.redis, this.ctx.prefix)
      .record(this.#settings.fingerprint)
      .catch(() => undefined);
    await this.#confirmRefusal().catch((error: unknown) =>
      this.ctx.logger.warn({ err: error }, 'could not check a refusal an interactive command saw'),
    );
    await this.#clearAccessNoticeIfBack().catch((error: unknown) =>
      this.ctx.logger.warn({ err: error }, 'could not compare the access notice with the access state'),
    );
    await this.#noticeSharedBudget().catch((error: unknown) =>
      this.ctx.logger.warn({ err: error }, 'could not record this process among the budget spenders'),
    );
    await this.#clearRateLimitNoticeIfLifted().catch((error: unknown) =>
      this.ctx.logger.warn({ err: error }, 'could not compare the rate-limit notice with the budget'),
    );
    await this.#watchEpoch(workerOnly).catch((error: unknown) =>
      this.ctx.logger.warn({ err: error }, 'could not check the Redis state epoch'),
    );
    await this.#accountForChannels().catch((error: unknown) =>
      this.ctx.logger.warn({ err: error }, 'could not account for removed channels'),
    );
    await this.#followDirectory(workerOnly ? 'worker' : 'start').catch((error: unknown) =>
      this.ctx.logger.warn({ err: error }, 'could not follow the issuer directory (watchlist: all)'),
    );
  }

  /**
   * An interactive command with this daemon's key was refused (a 401/403): one request of the daemon's own
   * probe client decides. Refused again, the guard stops polling everywhere and raises the notice; answered,
   * nothing changes (the command's key or moment was wrong, not the daemon's).
   */
  async #confirmRefusal(): Promise<void> {
    if (!(await this.ctx.access.takeConfirmation(this.#settings.fingerprint))) return;
    try {
      await this.client('probe').listIssuers();
      this.ctx.logger.info(
        'an interactive command was refused with this key; the upstream accepts it: polling goes on',
      );
    } catch (error) {
      this.ctx.logger.warn({ err: error }, 'checked the key an interactive command saw refused');
    }
  }

  /**
   * The access notice clears when access is back, whichever way it came back (a probe, a new key, a
   * record cleared by a process of an older version): the notice is read first, so one raised after the
   * access read cannot be cleared by mistake.
   */
  async #clearAccessNoticeIfBack(): Promise<void> {
    const active = await this.ctx.notices.list();
    if (!active.some((notice) => notice.key === ACCESS_REVOKED_NOTICE)) return;
    if ((await this.ctx.access.get()).state !== 'ok') return;
    await this.ctx.notices.clear(ACCESS_REVOKED_NOTICE, 'Upstream access is back; polling resumes.');
  }

  /**
   * Records this process among the spenders of the credential's budget and tells the operator while
   * another deployment spends it too: each plans as if the whole plan were its own, so the bounds `plan`
   * promises cannot hold. Cleared once this deployment is the only one left.
   */
  async #noticeSharedBudget(): Promise<void> {
    const own = this.#settings.config.redis.prefix;
    const spenders = await this.ctx.budget.spenders.beat(own, this.#processId);
    await reportSharedBudget(
      this.ctx.notices,
      spenders.filter((deployment) => deployment !== own),
    );
  }

  /**
   * The budget's block is the credential's, shared with every deployment using the key: another
   * deployment's probe may end probing (or the block lapse unused), and this deployment's notice must
   * then clear too.
   */
  async #clearRateLimitNoticeIfLifted(): Promise<void> {
    const active = await this.ctx.notices.list();
    if (!active.some((notice) => notice.key === RATE_LIMITED_NOTICE)) return;
    if ((await this.ctx.budget.usage()).probing !== null) return;
    await this.ctx.notices.clear(RATE_LIMITED_NOTICE, RATE_LIMIT_LIFTED);
  }

  /**
   * A flush takes the job schedulers with everything else, so no sweep would ever run again to notice:
   * the beat of every process checks the epoch, and a scheduling process puts the schedulers back.
   */
  async #watchEpoch(workerOnly: boolean): Promise<void> {
    const epoch = await this.ctx.epoch.check();
    if (!epoch.lost) return;
    const { config, plan, watched } = this.#settings;
    await reportStateLost(this.ctx, epoch.previous, watched.length);
    if (!workerOnly) await syncSchedulers(this.queues, config, plan);
  }

  #buildSenders(config: Config): Map<string, ChannelSender> {
    const registry = channelRegistry(this.#options.consoleOut);
    const deps = { now: this.ctx.now };
    // Every attempt's answer goes to the record of sent messages (state/delivery-record.ts).
    const record = {
      record: new DeliveryRecord(this.redis, this.ctx.prefix),
      limits: { maxAgeMs: config.retention.deliveries, maxRows: config.retention.deliveryRows },
      logger: this.ctx.logger,
    };
    const build = (channel: ChannelConfig) =>
      recordedSender(
        unlessSecretUnread(() => createSender(channel, deps, registry), unavailableSender),
        channel,
        record,
      );
    return new Map(config.channels.map((channel) => [channel.name, build(channel)]));
  }

  #buildClients(config: Config): Record<ClientRole, UpstreamClient> {
    const { budget, access, notices, logger, now } = this.ctx;
    const clients = buildUpstreamClients(config, {
      budget,
      access,
      notices,
      logger,
      metrics: this.metrics,
      now,
    });
    // Every call is counted by purpose for the console's overview (today's requests, all processes).
    return talliedClients(clients, budget);
  }

  #delegate(role: ClientRole): UpstreamClient {
    // Jobs hold this stable object; a reload swaps the client behind it.
    return {
      listIssuers: () => this.#clients[role].listIssuers(),
      getPositions: (issuerId, status) => this.#clients[role].getPositions(issuerId, status),
      close: async () => undefined,
    };
  }
}

/** What every connection of this process is called in `CLIENT LIST`: deployment, host and pid. */
function connectionNameOf(config: Config): string {
  return `${config.redis.prefix}:${hostname()}-${process.pid}`;
}

/**
 * The fingerprint of the credential whose ledger the budget counts in: the configured base URL and key,
 * or, for a command loaded without the key, the one the deployment's daemons recorded.
 */
async function ledgerOf(config: Config, redis: RedisClient): Promise<string> {
  const configured = unlessSecretUnread<string | null>(
    () => fingerprintOf(config),
    () => null,
  );
  if (configured !== null) return configured;
  const recorded = await new DeploymentLedger(redis, keyRoot(config.redis.prefix)).recorded();
  return recorded ?? UNREAD_KEY_FINGERPRINT;
}

/** The budget's caps and window lengths in a config. */
function budgetCaps(config: Config) {
  return {
    perMinute: config.budget.perMinute,
    perDay: config.budget.perDay,
    reserve: config.budget.reserve,
    minuteMs: config.budget.minuteWindow,
    dayMs: config.budget.dayWindow,
  };
}

/** Redis did not answer; the CLI explains how to get one. */
export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

/** Type guard for {@link RedisUnavailableError}. */
export function isRedisUnavailableError(error: unknown): error is RedisUnavailableError {
  return error instanceof RedisUnavailableError;
}
