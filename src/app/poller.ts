import type { Config } from '../config/schema.js';
import type { JobContext } from '../jobs/context.js';
import { RegisterDaemon } from '../jobs/registers/register-daemon.js';
import { WorkerSet } from '../jobs/workers.js';
import type { RedisHealth } from '../ops/redis-health.js';
import { redisReachable } from '../ops/redis-reachable.js';
import { type LivenessReport, WorkerLiveness } from '../ops/worker-liveness.js';
import type { RedisClient } from '../state/redis-connection.js';
import { tellProcessStuck } from './process-stuck.js';

/**
 * The poller: the sweep, poll and digest workers of this process and the register sources' (issue 24) on
 * their own blocking connection, and their liveness (src/ops/worker-liveness.ts): workers stuck on their
 * connection raise `process-stuck` and the `onDead` listeners are told (the daemon exits 1 for its
 * supervisor to restart it).
 */
export class Poller {
  readonly #ctx: JobContext;
  readonly #health: RedisHealth;
  readonly #connectionName: string;
  readonly #connection: RedisClient;
  #workers: WorkerSet | undefined;
  #liveness: WorkerLiveness | undefined;
  #registers: RegisterDaemon | undefined;
  readonly #deadListeners: Array<(reason: string) => void> = [];

  constructor(ctx: JobContext, connection: RedisClient, health: RedisHealth, connectionName: string) {
    this.#ctx = ctx;
    this.#connection = connection;
    this.#health = health;
    this.#connectionName = connectionName;
  }

  /** The workers' liveness; undefined until started (a CLI command never starts them). */
  get liveness(): LivenessReport | undefined {
    return this.#liveness?.report();
  }

  /** Calls `listener` when the workers or the delivery path are stuck: the process exits 1. */
  onDead(listener: (reason: string) => void): void {
    this.#deadListeners.push(listener);
  }

  /** Workers or deliverers are stuck (`what`: `its … is`): the notice first, then the listeners (exit 1). */
  async declareDead(what: string, reason: string): Promise<void> {
    await tellProcessStuck(this.#ctx.notices, this.#ctx.processId, what, reason);
    for (const listener of this.#deadListeners) listener(reason);
  }

  /** The register sources' job schedulers and worker (undefined before `startRegisters`). */
  get registers(): RegisterDaemon | undefined {
    return this.#registers;
  }

  /** Starts the register sources' worker, and their schedulers unless `schedule` is false (a worker). */
  async startRegisters(commands: RedisClient, schedule: boolean): Promise<void> {
    this.#registers = new RegisterDaemon(this.#ctx, { commands, jobs: this.#connection });
    this.#health.watchBull('queue:register', this.#registers.queue);
    await this.#registers.start({ schedule });
    this.#watchRegisters();
  }

  #watchRegisters(): void {
    for (const worker of this.#registers?.all() ?? []) this.#health.watchBull('worker:register', worker);
  }

  /** Starts the workers. */
  start(): void {
    this.#workers = new WorkerSet(this.#ctx, this.#connection);
    this.#workers.start();
    for (const worker of this.#workers.all()) this.#health.watchBull(`worker:${worker.name}`, worker);
  }

  /** Starts watching the workers take jobs, with the config's interval and timeout. */
  watch(liveness: Config['redis']['liveness'], commands: RedisClient): void {
    this.#liveness = new WorkerLiveness({
      root: this.#ctx.prefix,
      processId: this.#ctx.processId,
      intervalMs: liveness.interval,
      timeoutMs: liveness.timeout,
      commands,
      reachable: () => redisReachable(this.#ctx.settings().config.redis, `${this.#connectionName}:referee`),
      jobs: this.#connection,
      logger: this.#ctx.logger,
      now: () => this.#ctx.now().getTime(),
      workers: () => [...(this.#workers?.all() ?? []), ...(this.#registers?.all() ?? [])],
      onDead: (reason) => void this.declareDead('its BullMQ workers are', reason),
      watch: (name, emitter) => this.#health.watchBull(name, emitter),
    });
    this.#liveness.start();
  }

  /** Stops the liveness watch first, so that closing workers is not taken for stuck ones. */
  async unwatch(): Promise<void> {
    await this.#liveness?.stop();
  }

  /** Stops the workers, finishing jobs in flight up to `timeoutMs`. */
  async close(timeoutMs: number): Promise<void> {
    await Promise.all([this.#workers?.close(timeoutMs), this.#registers?.close(timeoutMs)]);
  }

  /** Closes the job connection (after `stop`). */
  async quit(): Promise<void> {
    await this.#connection.quit();
  }
}
