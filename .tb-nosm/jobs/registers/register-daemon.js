import { Queue, Worker } from "bullmq";
import { RegisterStore } from "../../state/register-store.js";
import { bullPrefix } from "../queue-set.js";
import { KEEP_FAILED, QUEUE, SCHEDULER } from "../queues.js";
import { runRegisterPoll } from "./register-poll.js";
class RegisterDaemon {
  #ctx;
  #queue;
  #jobs;
  #store;
  #worker;
  constructor(ctx, connections) {
    this.#ctx = ctx;
    this.#jobs = connections.jobs;
    this.#queue = new Queue(QUEUE.register, {
      connection: connections.commands,
      prefix: bullPrefix(ctx.prefix)
    });
    this.#store = new RegisterStore(connections.commands, ctx.prefix);
  }
  /** The store of every source's reads and health (for `status`). */
  get store() {
    return this.#store;
  }
  /** Starts the worker; with `schedule`, also makes the schedulers match the config. */
  async start(options) {
    if (options.schedule) await this.sync(this.#ctx.settings().config);
    this.#startWorker();
  }
  /** The queue the schedulers add to, for the App's Redis-error watch (BullMQ prints an unwatched one's). */
  get queue() {
    return this.#queue;
  }
  /** The worker, for the App's liveness and Redis-error watch (empty before `start`). */
  all() {
    return this.#worker === void 0 ? [] : [this.#worker];
  }
  /** Starts the worker again on a new job connection (the App recreates a stuck one). */
  async restart(jobs) {
    await this.#worker?.close(true).catch(() => void 0);
    this.#jobs = jobs;
    this.#startWorker();
  }
  #startWorker() {
    this.#worker = new Worker(QUEUE.register, async (job) => this.#run(job), {
      connection: this.#jobs,
      prefix: bullPrefix(this.#ctx.prefix),
      concurrency: 1
    });
    this.#worker.on(
      "failed",
      (job, error) => this.#ctx.logger.warn({ queue: QUEUE.register, jobId: job?.id, err: error }, "register read failed")
    );
  }
  /** One scheduler per configured source; those of removed sources are removed. */
  async sync(config) {
    const wanted = /* @__PURE__ */ new Set();
    for (const source of config.sources) {
      const id = SCHEDULER.register(source.name);
      wanted.add(id);
      await this.#queue.upsertJobScheduler(
        id,
        { every: source.interval },
        {
          name: "register",
          data: { source: source.name },
          opts: { removeOnComplete: { count: 200 }, removeOnFail: KEEP_FAILED }
        }
      );
    }
    for (const scheduler of await this.#queue.getJobSchedulers(0, -1)) {
      const id = scheduler.id ?? scheduler.key;
      if (!wanted.has(id)) await this.#queue.removeJobScheduler(id);
    }
  }
  /** Stops the worker (waiting up to `timeoutMs` for a read in flight) and closes the queue. */
  async close(timeoutMs) {
    const worker = this.#worker;
    if (worker !== void 0) {
      const graceful = worker.close().then(() => true);
      const timer = new Promise((resolve) => setTimeout(() => resolve(false), timeoutMs).unref());
      if (!await Promise.race([graceful, timer])) await worker.close(true);
    }
    await this.#queue.close();
  }
  async #run(job) {
    const source = job.data?.source;
    if (typeof source !== "string") throw new Error(`register job ${job.id} names no source`);
    return runRegisterPoll(this.#ctx, { store: this.#store, readAgain: this.#readAgain }, source);
  }
  /** One extra read of a source after a held-back read's `confirm.after` (deduplicated until then). */
  #readAgain = async (source, delayMs) => {
    const delay = Math.max(0, Math.round(delayMs));
    await this.#queue.add(
      "register",
      { source },
      {
        delay,
        deduplication: { id: `again-${source}`, ttl: Math.max(1, delay) },
        removeOnComplete: { count: 200 },
        removeOnFail: KEEP_FAILED
      }
    );
  };
}
export {
  RegisterDaemon
};
