import { RegisterDaemon } from "../jobs/registers/register-daemon.js";
import { WorkerSet } from "../jobs/workers.js";
import { redisReachable } from "../ops/redis-reachable.js";
import { WorkerLiveness } from "../ops/worker-liveness.js";
import { tellProcessStuck } from "./process-stuck.js";
class Poller {
  #ctx;
  #health;
  #connectionName;
  #connection;
  #workers;
  #liveness;
  #registers;
  #deadListeners = [];
  constructor(ctx, connection, health, connectionName) {
    this.#ctx = ctx;
    this.#connection = connection;
    this.#health = health;
    this.#connectionName = connectionName;
  }
  /** The workers' liveness; undefined until started (a CLI command never starts them). */
  get liveness() {
    return this.#liveness?.report();
  }
  /** Calls `listener` when the workers or the delivery path are stuck: the process exits 1. */
  onDead(listener) {
    this.#deadListeners.push(listener);
  }
  /** Workers or deliverers are stuck (`what`: `its … is`): the notice first, then the listeners (exit 1). */
  async declareDead(what, reason) {
    await tellProcessStuck(this.#ctx.notices, this.#ctx.processId, what, reason);
    for (const listener of this.#deadListeners) listener(reason);
  }
  /** The register sources' job schedulers and worker (undefined before `startRegisters`). */
  get registers() {
    return this.#registers;
  }
  /** Starts the register sources' worker, and their schedulers unless `schedule` is false (a worker). */
  async startRegisters(commands, schedule) {
    this.#registers = new RegisterDaemon(this.#ctx, { commands, jobs: this.#connection });
    this.#health.watchBull("queue:register", this.#registers.queue);
    await this.#registers.start({ schedule });
    this.#watchRegisters();
  }
  #watchRegisters() {
    for (const worker of this.#registers?.all() ?? []) this.#health.watchBull("worker:register", worker);
  }
  /** Starts the workers. */
  start() {
    this.#workers = new WorkerSet(this.#ctx, this.#connection);
    this.#workers.start();
    for (const worker of this.#workers.all()) this.#health.watchBull(`worker:${worker.name}`, worker);
  }
  /** Starts watching the workers take jobs, with the config's interval and timeout. */
  watch(liveness, commands) {
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
      workers: () => [...this.#workers?.all() ?? [], ...this.#registers?.all() ?? []],
      onDead: (reason) => void this.declareDead("its BullMQ workers are", reason),
      watch: (name, emitter) => this.#health.watchBull(name, emitter)
    });
    this.#liveness.start();
  }
  /** Stops the liveness watch first, so that closing workers is not taken for stuck ones. */
  async unwatch() {
    await this.#liveness?.stop();
  }
  /** Stops the workers, finishing jobs in flight up to `timeoutMs`. */
  async close(timeoutMs) {
    await Promise.all([this.#workers?.close(timeoutMs), this.#registers?.close(timeoutMs)]);
  }
  /** Closes the job connection (after `stop`). */
  async quit() {
    await this.#connection.quit();
  }
}
export {
  Poller
};
