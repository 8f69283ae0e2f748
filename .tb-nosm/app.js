import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { connect, connectionNameOf, ledgerOf, openQueues } from "./app/connections.js";
import { buildContext } from "./app/context.js";
import { Daemon } from "./app/daemon.js";
import { followDirectory } from "./app/duties/directory-follow.js";
import { initialSettings, LiveSettings } from "./app/live-settings.js";
import { Poller } from "./app/poller.js";
import { reloadConfig } from "./app/reload.js";
import { preflight, prepareStart, referenceStores } from "./app/start-checks.js";
import { subscriberMail } from "./app/subscriber-mail.js";
import {
  channelSenders,
  clientDepsOf,
  recordDeps,
  upstreamClients,
  upstreamClientsOrUnavailable
} from "./app/upstream-parts.js";
import { DirectoryFollower } from "./jobs/directory-follower.js";
import { syncSchedulers } from "./jobs/schedulers.js";
import { subscriberDigestSchedules } from "./jobs/subscriber-digest.js";
import { SubscriberFollower } from "./jobs/subscriber-follower.js";
import { stateKeys } from "./state/keys.js";
import { createMetrics } from "./telemetry/metrics.js";
import { within } from "./time/within.js";
const STOP_WRITE_MS = 2e3;
import { isRedisUnavailableError, RedisUnavailableError } from "./app/connections.js";
import { planFor } from "./jobs/plan-for.js";
class App {
  ctx;
  metrics = createMetrics();
  redis;
  #health;
  #options;
  #live;
  #poller;
  #follower;
  #subscriberFollower;
  #queues;
  #daemon;
  constructor(config, options, connections, ledger) {
    const { redis, workerRedis, health } = connections;
    this.#options = options;
    this.redis = redis;
    this.#health = health;
    this.#live = new LiveSettings(initialSettings(config));
    this.ctx = buildContext(config, {
      redis,
      ledger,
      logger: options.logger,
      now: options.now ?? (() => /* @__PURE__ */ new Date()),
      metrics: this.metrics,
      // Host and pid name the process; the random part fences this incarnation: a container restarted
      // with the same hostname and pid 1 is another sender, whose claims are not its predecessor's.
      processId: `${hostname()}-${process.pid}-${randomBytes(3).toString("hex")}`,
      settings: () => this.#live.current,
      upstream: this.#live.delegate("polling"),
      probe: this.#live.delegate("probe"),
      queues: () => this.queues
    });
    const deps = clientDepsOf(this.ctx, this.metrics);
    this.#live.swap(this.#live.current, upstreamClientsOrUnavailable(config, deps));
    this.#live.update(this.#senders(config));
    this.#poller = new Poller(this.ctx, workerRedis, health, connectionNameOf(config));
    this.#follower = new DirectoryFollower(this.ctx);
    this.#subscriberFollower = new SubscriberFollower(this.ctx);
  }
  /** Connects to Redis and builds every part; fails fast when Redis does not answer. */
  static async open(config, options) {
    const connections = await connect(config, options.logger);
    const { redis, workerRedis } = connections;
    try {
      const app = new App(config, options, connections, await ledgerOf(config, redis));
      await app.#follow("command");
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
  get queues() {
    this.#queues ??= openQueues(this.redis, this.ctx.prefix, this.#health);
    return this.#queues;
  }
  /** The current settings (config, plan, watchlist, senders). */
  get settings() {
    return this.#live.current;
  }
  /** An upstream client following the given budget rules. */
  client(role) {
    return this.#live.client(role);
  }
  /** Whether this process's BullMQ workers still take jobs (src/ops/worker-liveness.ts); undefined in a CLI. */
  get liveness() {
    return this.#poller.liveness;
  }
  /** Whether this process's delivery path still answers (src/ops/delivery-liveness.ts); undefined in a CLI. */
  get deliveryLiveness() {
    return this.#daemon?.deliveryLiveness;
  }
  /** Calls `listener` when the workers stay stuck after their connections were recreated: exit non-zero. */
  onWorkersDead(listener) {
    this.#poller.onDead(listener);
  }
  /**
   * Runs the daemon in this process: workers always; schedulers too unless `workerOnly`. First the checks
   * `shortwatch check` makes too: a problem is a ConfigError naming its key, thrown before anything is
   * registered (src/app/start-checks.ts).
   */
  async startDaemon(options) {
    const { ctx } = this;
    const syncSchedulers2 = () => this.#syncSchedulers();
    const preflight2 = (config) => this.#preflight(config);
    await prepareStart({ ctx, live: this.#live, preflight: preflight2, syncSchedulers: syncSchedulers2 }, options.workerOnly);
    this.#daemon = new Daemon({
      ctx,
      live: this.#live,
      poller: this.#poller,
      health: this.#health,
      redis: this.redis,
      connectionName: connectionNameOf(this.settings.config),
      workerOnly: options.workerOnly,
      syncSchedulers: syncSchedulers2,
      followDirectory: () => this.#follow(options.workerOnly ? "worker" : "start")
    });
    await this.#daemon.start();
  }
  /** Swaps in a new config without a restart: watchlist, channels, plan, schedulers (src/app/reload.ts). */
  async reload(config, options) {
    await reloadConfig(
      {
        ctx: this.ctx,
        live: this.#live,
        daemon: this.#daemon,
        preflight: (next) => this.#preflight(next),
        clients: (next) => upstreamClients(next, clientDepsOf(this.ctx, this.metrics)),
        senders: (next) => this.#senders(next),
        syncSchedulers: () => this.#syncSchedulers()
      },
      config,
      options
    );
  }
  /** Stops workers (finishing jobs in flight up to `timeoutMs`), then closes queues, senders and Redis. */
  async stop(timeoutMs = 1e4) {
    await this.#daemon?.stop(timeoutMs);
    const leave = this.redis.hdel(stateKeys(this.ctx.prefix).workers, this.ctx.processId);
    await within(leave, STOP_WRITE_MS, "leaving the workers list").catch(() => void 0);
    await this.#queues?.close();
    await this.#live.close();
    const quits = [this.redis.quit(), this.#poller.quit()].map((p) => p.catch(() => void 0));
    await within(Promise.all(quits), STOP_WRITE_MS, "closing Redis").catch(() => this.redis.disconnect());
  }
  #preflight(config) {
    const listIssuers = () => this.client("polling").listIssuers();
    return preflight(config, this.#options.configFile ?? "config", {
      ...referenceStores(this.ctx),
      listIssuers
    });
  }
  async #follow(role) {
    const syncSchedulers2 = () => this.#syncSchedulers();
    await followDirectory({ follower: this.#follower, live: this.#live, syncSchedulers: syncSchedulers2 }, role);
    const subscribers = this.#subscriberFollower;
    await followDirectory({ follower: subscribers, live: this.#live, syncSchedulers: syncSchedulers2 }, role);
  }
  async #syncSchedulers() {
    const { config, plan } = this.settings;
    const subscribers = config.subscribers ? await subscriberDigestSchedules(this.ctx) : [];
    await syncSchedulers(this.queues, config, plan, subscribers);
  }
  #senders(config) {
    const { redis, prefix, logger, now } = this.ctx;
    const deps = { redis, prefix, logger, now, consoleOut: this.#options.consoleOut };
    return {
      senders: channelSenders(config, deps),
      subscriberMail: subscriberMail(config, { ...deps, record: recordDeps(config, deps) })
    };
  }
}
export {
  App,
  RedisUnavailableError,
  isRedisUnavailableError,
  planFor
};
