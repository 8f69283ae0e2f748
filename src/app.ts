import { hostname } from 'node:os';
import type { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { AccessState, isPlanError, type Plan, planPolling, RateBudget } from './budget/index.js';
import { channelRegistry, createSender } from './channels/registry.js';
import type { ChannelSender } from './channels/types.js';
import { ConfigError } from './config/config-error.js';
import type { Config } from './config/schema.js';
import type { JobContext, Settings } from './jobs/context.js';
import { DigestStore } from './jobs/digest-store.js';
import { IssuerDirectory } from './jobs/directory.js';
import { enqueueDelivery } from './jobs/dispatch.js';
import { stateKeys } from './jobs/keys.js';
import { QueueSet } from './jobs/queue-set.js';
import { noticeJobId } from './jobs/queues.js';
import { syncSchedulers } from './jobs/schedulers.js';
import { resolveWatchlist } from './jobs/watchlist.js';
import { WorkerSet } from './jobs/workers.js';
import type { Logger } from './ops/logger.js';
import { createMetrics, type Metrics } from './ops/metrics.js';
import { Notices } from './ops/notices.js';
import { EventLog, SnapshotStore } from './positions/index.js';
import { MuteStore } from './routing/index.js';
import type { UpstreamClient } from './upstream/index.js';
import { buildUpstreamClients, type ClientRole, fingerprintOf } from './upstream-clients.js';

export type { ClientRole } from './upstream-clients.js';

/** How an App is built; everything from outside is passed in. */
export interface AppOptions {
  logger: Logger;
  now?: () => Date;
  /** Where console channels write; stdout by default. */
  consoleOut?: Writable;
}

/** Turns the config's watchlist size and caps into the polling plan; a watchlist that cannot fit is a config error. */
export function planFor(config: Config): Plan {
  try {
    return planPolling({
      watchlistSize: config.watchlist.length,
      perMinute: config.budget.perMinute,
      perDay: config.budget.perDay,
      reserve: config.budget.reserve,
      gate: config.poll.gate,
      gateIntervalMs: config.poll.gateInterval,
      intervalMs: config.poll.interval,
      maxStalenessMs: config.poll.maxStaleness,
      dayMs: config.budget.dayWindow,
      minuteMs: config.budget.minuteWindow,
    });
  } catch (error) {
    if (isPlanError(error)) throw new ConfigError('plan', [{ path: 'watchlist', message: error.message }]);
    throw error;
  }
}

/**
 * The parts of shortwatch built from one config, sharing one Redis: every state lives there, so any
 * number of processes cooperate. `startDaemon` adds workers (and schedulers); CLI commands use the parts.
 */
export class App {
  readonly ctx: JobContext;
  readonly queues: QueueSet;
  readonly metrics: Metrics;
  readonly redis: Redis;
  readonly #workerRedis: Redis;
  readonly #options: AppOptions;
  #settings: Settings;
  #clients: Record<ClientRole, UpstreamClient>;
  #workers: WorkerSet | undefined;
  #beat: NodeJS.Timeout | undefined;
  readonly #processId = `${hostname()}-${process.pid}`;

  private constructor(config: Config, options: AppOptions, redis: Redis, workerRedis: Redis) {
    const now = options.now ?? (() => new Date());
    const prefix = config.redis.prefix;
    this.#options = options;
    this.redis = redis;
    this.#workerRedis = workerRedis;
    this.metrics = createMetrics();
    this.queues = new QueueSet(redis, prefix);
    const nowMs = () => now().getTime();
    const budget = new RateBudget(
      redis,
      {
        prefix,
        perMinute: config.budget.perMinute,
        perDay: config.budget.perDay,
        reserve: config.budget.reserve,
        minuteMs: config.budget.minuteWindow,
        dayMs: config.budget.dayWindow,
      },
      nowMs,
    );
    const access = new AccessState(redis, prefix, nowMs);
    this.#settings = {
      config,
      plan: planFor(config),
      watched: [],
      senders: new Map(),
      fingerprint: fingerprintOf(config),
    };
    const notices = new Notices(
      redis,
      prefix,
      options.logger,
      (notice, occurrence) => this.#sendNotice(notice, occurrence),
      now,
    );
    this.ctx = {
      settings: () => this.#settings,
      prefix,
      redis,
      now,
      logger: options.logger,
      metrics: this.metrics,
      upstream: this.#delegate('polling'),
      probe: this.#delegate('probe'),
      budget,
      access,
      snapshots: new SnapshotStore(redis, prefix),
      eventLog: new EventLog(redis, prefix, config.poll.eventsKept),
      directory: new IssuerDirectory(redis, prefix),
      mutes: new MuteStore(redis, prefix, nowMs),
      notices,
      digests: new DigestStore(redis, prefix),
      queues: this.queues,
    };
    this.#clients = this.#buildClients(config);
    this.#settings = { ...this.#settings, senders: this.#buildSenders(config) };
  }

  /** Connects to Redis and builds every part; fails fast when Redis does not answer. */
  static async open(config: Config, options: AppOptions): Promise<App> {
    const url = config.redis.url.reveal();
    // Named so that `CLIENT LIST` tells which deployment and process owns each connection.
    const name = `${config.redis.prefix}:${hostname()}-${process.pid}`;
    const redis = new Redis(url, {
      maxRetriesPerRequest: 3,
      lazyConnect: true,
      connectTimeout: 5_000,
      connectionName: `${name}:app`,
    });
    const workerRedis = new Redis(url, {
      maxRetriesPerRequest: null,
      lazyConnect: true,
      connectTimeout: 5_000,
      connectionName: `${name}:jobs`,
    });
    // Without these listeners ioredis prints reconnect errors itself, possibly with the URL.
    for (const client of [redis, workerRedis]) {
      client.on('error', (error: Error) =>
        options.logger.debug({ err: error.message }, 'redis connection error'),
      );
    }
    try {
      await Promise.all([redis.connect(), workerRedis.connect()]);
    } catch (error) {
      redis.disconnect();
      workerRedis.disconnect();
      throw new RedisUnavailableError(error instanceof Error ? error.message : String(error));
    }
    return new App(config, options, redis, workerRedis);
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
   * Runs the daemon in this process: workers always; schedulers too unless `workerOnly`. Watchlist
   * names that cannot be resolved at start are a config error.
   */
  async startDaemon(options: { workerOnly: boolean }): Promise<void> {
    await this.#reconcileAccess();
    await this.#resolveAtStart();
    if (!options.workerOnly) await syncSchedulers(this.queues, this.#settings.config, this.#settings.plan);
    this.#workers = new WorkerSet(this.ctx, this.#workerRedis);
    this.#workers.start();
    await this.#beatOnce(options.workerOnly ? 'worker' : 'start');
    this.#beat = setInterval(
      () => void this.#beatOnce(options.workerOnly ? 'worker' : 'start'),
      10_000,
    ).unref();
  }

  /** Swaps in a new config without a restart: watchlist, channels, plan, schedulers. */
  async reload(config: Config, options: { workerOnly: boolean }): Promise<void> {
    if (config.redis.prefix !== this.#settings.config.redis.prefix) {
      throw new ConfigError('reload', [{ path: 'redis.prefix', message: 'cannot change without a restart' }]);
    }
    const plan = planFor(config);
    const oldSenders = this.#settings.senders;
    const oldClients = this.#clients;
    this.#clients = this.#buildClients(config);
    const directory = (await this.ctx.directory.load())?.issuers ?? null;
    this.#settings = {
      config,
      plan,
      // Names that do not resolve now raise a notice at the next sweep rather than stop a running daemon.
      watched: resolveWatchlist(config.watchlist, directory).watched,
      senders: this.#buildSenders(config),
      fingerprint: fingerprintOf(config),
    };
    await this.#reconcileAccess();
    if (!options.workerOnly) await syncSchedulers(this.queues, config, plan);
    this.#workers?.syncChannels(config.channels);
    await Promise.all([...oldSenders.values()].map((s) => s.close().catch(() => undefined)));
    await Promise.all(Object.values(oldClients).map((c) => c.close().catch(() => undefined)));
  }

  /** Stops workers (finishing jobs in flight up to `timeoutMs`), then closes queues, senders and Redis. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (this.#beat) clearInterval(this.#beat);
    await this.#workers?.close(timeoutMs);
    await this.redis.hdel(stateKeys(this.ctx.prefix).workers, this.#processId).catch(() => undefined);
    await this.queues.close();
    await Promise.all([...this.#settings.senders.values()].map((s) => s.close().catch(() => undefined)));
    await Promise.all(Object.values(this.#clients).map((c) => c.close().catch(() => undefined)));
    await Promise.all([this.redis.quit(), this.#workerRedis.quit()].map((p) => p.catch(() => undefined)));
  }

  async #resolveAtStart(): Promise<void> {
    const { config } = this.#settings;
    const byName = config.watchlist.some((entry) => 'name' in entry);
    let directory = (await this.ctx.directory.load())?.issuers ?? null;
    if (byName && directory === null) {
      try {
        const list = await this.client('polling').listIssuers();
        await this.ctx.directory.save(list.data, list.last_updated, this.ctx.now());
        directory = list.data;
      } catch (error) {
        this.ctx.logger.warn(
          { err: error },
          'could not fetch the issuer directory; names resolve at the first sweep',
        );
      }
    }
    const { watched, problems } = resolveWatchlist(config.watchlist, directory);
    if (problems.length > 0) {
      throw new ConfigError(
        'watchlist',
        problems.map((p) => ({
          path: 'watchlist',
          message: `"${p.entry}" ${p.problem === 'unknown' ? 'matches no issuer' : 'is ambiguous'}; closest: ${p.candidates.join(', ')}`,
        })),
      );
    }
    this.#settings = { ...this.#settings, watched };
  }

  async #reconcileAccess(): Promise<void> {
    if (await this.ctx.access.reconcile(this.#settings.fingerprint)) {
      await this.ctx.notices.clear('access-revoked', 'The upstream key or URL changed; polling resumes.');
    }
  }

  async #beatOnce(role: string): Promise<void> {
    const record = { role, pid: process.pid, host: hostname(), seenAt: this.ctx.now().toISOString() };
    await this.redis
      .hset(stateKeys(this.ctx.prefix).workers, this.#processId, JSON.stringify(record))
      .catch(() => undefined);
  }

  async #sendNotice(notice: Parameters<typeof enqueueDelivery>[2], occurrence: string): Promise<void> {
    const { config } = this.#settings;
    const channel = config.channels.find((c) => c.name === config.ops.channel);
    if (!channel || notice.type !== 'notice') return;
    await enqueueDelivery(this.ctx, channel, notice, noticeJobId(channel.name, notice.key, occurrence));
  }

  #buildSenders(config: Config): Map<string, ChannelSender> {
    const registry = channelRegistry(this.#options.consoleOut);
    const deps = { now: this.ctx.now };
    return new Map(config.channels.map((channel) => [channel.name, createSender(channel, deps, registry)]));
  }

  #buildClients(config: Config): Record<ClientRole, UpstreamClient> {
    const { budget, access, notices, logger, now } = this.ctx;
    return buildUpstreamClients(config, { budget, access, notices, logger, metrics: this.metrics, now });
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

/** Redis did not answer; the CLI explains how to get one. */
export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

/** Type guard for {@link RedisUnavailableError}. */
export function isRedisUnavailableError(error: unknown): error is RedisUnavailableError {
  return error instanceof RedisUnavailableError;
}
