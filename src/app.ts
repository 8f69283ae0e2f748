import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type Connections, connect, connectionNameOf, ledgerOf, openQueues } from './app/connections.js';
import { buildContext } from './app/context.js';
import { Daemon } from './app/daemon.js';
import { followDirectory } from './app/duties/directory-follow.js';
import { initialSettings, LiveSettings } from './app/live-settings.js';
import type { AppOptions } from './app/options.js';
import { Poller } from './app/poller.js';
import { reloadConfig } from './app/reload.js';
import { preflight, prepareStart, referenceStores } from './app/start-checks.js';
import { subscriberMail } from './app/subscriber-mail.js';
import {
  channelSenders,
  clientDepsOf,
  recordDeps,
  upstreamClients,
  upstreamClientsOrUnavailable,
} from './app/upstream-parts.js';
import type { Config } from './config/schema.js';
import type { JobContext, Settings } from './jobs/context.js';
import { DirectoryFollower } from './jobs/directory-follower.js';
import type { QueueSet } from './jobs/queue-set.js';
import { syncSchedulers } from './jobs/schedulers.js';
import { subscriberDigestSchedules } from './jobs/subscriber-digest.js';
import { SubscriberFollower } from './jobs/subscriber-follower.js';
import type { RedisHealth } from './ops/redis-health.js';
import type { LivenessReport } from './ops/worker-liveness.js';
import type { ReferencesAccepted } from './preflight/reference-check.js';
import { stateKeys } from './state/keys.js';
import type { RedisClient } from './state/redis-connection.js';
import type { EventLoopDelayReport } from './telemetry/event-loop-delay.js';
import { createMetrics, type Metrics } from './telemetry/metrics.js';
import { within } from './time/within.js';
import type { UpstreamClient } from './upstream/index.js';
import type { ClientRole } from './upstream-clients.js';

/** How long a stop waits for each of its last writes and for the connections to close. */
const STOP_WRITE_MS = 2_000;

export { isRedisUnavailableError, RedisUnavailableError } from './app/connections.js';
export type { AppOptions } from './app/options.js';
export { planFor } from './jobs/plan-for.js';
export type { ClientRole } from './upstream-clients.js';

/**
 * The composition root: the parts of shortwatch built from one config, sharing one Redis (every state
 * lives there, so any number of processes cooperate). CLI commands use the parts; `startDaemon` adds the
 * poller, the deliverers and the beat's duties (src/app/daemon.ts).
 */
export class App {
  readonly ctx: JobContext;
  readonly metrics: Metrics = createMetrics();
  readonly redis: RedisClient;
  readonly #health: RedisHealth;
  readonly #options: AppOptions;
  readonly #live: LiveSettings;
  readonly #poller: Poller;
  readonly #follower: DirectoryFollower;
  readonly #subscriberFollower: SubscriberFollower;
  #queues: QueueSet | undefined;
  #daemon: Daemon | undefined;

  private constructor(config: Config, options: AppOptions, connections: Connections, ledger: string) {
    const { redis, workerRedis, health } = connections;
    this.#options = options;
    this.redis = redis;
    this.#health = health;
    this.#live = new LiveSettings(initialSettings(config));
    this.ctx = buildContext(config, {
      redis,
      ledger,
      logger: options.logger,
      now: options.now ?? (() => new Date()),
      metrics: this.metrics,
      // Host and pid name the process; the random part fences this incarnation: a container restarted
      // with the same hostname and pid 1 is another sender, whose claims are not its predecessor's.
      processId: `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
      settings: () => this.#live.current,
      upstream: this.#live.delegate('polling'),
      probe: this.#live.delegate('probe'),
      queues: () => this.queues,
    });
    const deps = clientDepsOf(this.ctx, this.metrics);
    this.#live.swap(this.#live.current, upstreamClientsOrUnavailable(config, deps));
    this.#live.update(this.#senders(config));
    this.#poller = new Poller(this.ctx, workerRedis, health, connectionNameOf(config));
    this.#follower = new DirectoryFollower(this.ctx);
    this.#subscriberFollower = new SubscriberFollower(this.ctx);
  }

  /** Connects to Redis and builds every part; fails fast when Redis does not answer. */
  static async open(config: Config, options: AppOptions): Promise<App> {
    const connections = await connect(config, options.logger);
    const { redis, workerRedis } = connections;
    try {
      const app = new App(config, options, connections, await ledgerOf(config, redis));
      // A command's plan under `watchlist: all` is the one for the list the sweeps saved.
      await app.#follow('command');
      return app;
    } catch (error) {
      redis.disconnect();
      workerRedis.disconnect();
      throw error;
    }
  }

  /**
   * The BullMQ queues, opened on first use: a queue writes its meta key as it opens, and a start refused
   * by its checks must leave Redis as it found it.
   */
  get queues(): QueueSet {
    this.#queues ??= openQueues(this.redis, this.ctx.prefix, this.#health);
    return this.#queues;
  }

  /** The current settings (config, plan, watchlist, senders). */
  get settings(): Settings {
    return this.#live.current;
  }

  /** An upstream client following the given budget rules. */
  client(role: ClientRole): UpstreamClient {
    return this.#live.client(role);
  }

  /** Whether this process's BullMQ workers still take jobs (src/ops/worker-liveness.ts); undefined in a CLI. */
  get liveness(): LivenessReport | undefined {
    return this.#poller.liveness;
  }

  /** Whether this process's delivery path still answers (src/ops/delivery-liveness.ts); undefined in a CLI. */
  get deliveryLiveness(): LivenessReport | undefined {
    return this.#daemon?.deliveryLiveness;
  }

  /** This process's event-loop delays since its daemon started (telemetry/event-loop-delay.ts); undefined in a CLI. */
  get eventLoopDelay(): EventLoopDelayReport | undefined {
    return this.#daemon?.eventLoop.report();
  }

  /** Calls `listener` when the workers stay stuck after their connections were recreated: exit non-zero. */
  onWorkersDead(listener: (reason: string) => void): void {
    this.#poller.onDead(listener);
  }

  /**
   * Runs the daemon in this process: workers always; schedulers too unless `workerOnly`. First the checks
   * `shortwatch check` makes too: a problem is a ConfigError naming its key, thrown before anything is
   * registered (src/app/start-checks.ts).
   */
  async startDaemon(options: { workerOnly: boolean }): Promise<void> {
    const { ctx } = this;
    const syncSchedulers = () => this.#syncSchedulers();
    const preflight = (config: Config) => this.#preflight(config);
    await prepareStart({ ctx, live: this.#live, preflight, syncSchedulers }, options.workerOnly);
    this.#daemon = new Daemon({
      ctx,
      live: this.#live,
      poller: this.#poller,
      health: this.#health,
      redis: this.redis,
      connectionName: connectionNameOf(this.settings.config),
      workerOnly: options.workerOnly,
      syncSchedulers,
      followDirectory: () => this.#follow(options.workerOnly ? 'worker' : 'start'),
    });
    await this.#daemon.start();
  }

  /** Swaps in a new config without a restart: watchlist, channels, plan, schedulers (src/app/reload.ts). */
  async reload(config: Config, options: { workerOnly: boolean }): Promise<void> {
    await reloadConfig(
      {
        ctx: this.ctx,
        live: this.#live,
        daemon: this.#daemon,
        preflight: (next) => this.#preflight(next),
        clients: (next) => upstreamClients(next, clientDepsOf(this.ctx, this.metrics)),
        senders: (next) => this.#senders(next),
        syncSchedulers: () => this.#syncSchedulers(),
      },
      config,
      options,
    );
  }

  /** Stops workers (finishing jobs in flight up to `timeoutMs`), then closes queues, senders and Redis. */
  async stop(timeoutMs = 10_000): Promise<void> {
    await this.#daemon?.stop(timeoutMs);
    // Bounded: on a Redis that refuses writes (a replica answering READONLY is reconnected to and asked
    // again, for ever) a command's stop must still end.
    const leave = this.redis.hdel(stateKeys(this.ctx.prefix).workers, this.ctx.processId);
    await within(leave, STOP_WRITE_MS, 'leaving the workers list').catch(() => undefined);
    await this.#queues?.close();
    await this.#live.close();
    const quits = [this.redis.quit(), this.#poller.quit()].map((p) => p.catch(() => undefined));
    await within(Promise.all(quits), STOP_WRITE_MS, 'closing Redis').catch(() => this.redis.disconnect());
  }

  #preflight(config: Config): Promise<ReferencesAccepted> {
    const listIssuers = () => this.client('polling').listIssuers();
    return preflight(config, this.#options.configFile ?? 'config', {
      ...referenceStores(this.ctx),
      listIssuers,
    });
  }

  async #follow(role: 'command' | 'worker' | 'start'): Promise<void> {
    const syncSchedulers = () => this.#syncSchedulers();
    await followDirectory({ follower: this.#follower, live: this.#live, syncSchedulers }, role);
    // Then the subscribers' issuers, the same way: the union is what the sweeps poll.
    const subscribers = this.#subscriberFollower;
    await followDirectory({ follower: subscribers, live: this.#live, syncSchedulers }, role);
  }

  async #syncSchedulers(): Promise<void> {
    const { config, plan } = this.settings;
    const subscribers = config.subscribers ? await subscriberDigestSchedules(this.ctx) : [];
    await syncSchedulers(this.queues, config, plan, subscribers);
  }

  #senders(config: Config): Pick<Settings, 'senders' | 'subscriberMail'> {
    const { redis, prefix, logger, now } = this.ctx;
    const deps = { redis, prefix, logger, now, consoleOut: this.#options.consoleOut };
    return {
      senders: channelSenders(config, deps),
      subscriberMail: subscriberMail(config, { ...deps, record: recordDeps(config, deps) }),
    };
  }
}
