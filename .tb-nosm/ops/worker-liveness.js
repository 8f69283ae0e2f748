import { createHash } from "node:crypto";
import { Queue, Worker } from "bullmq";
import { stateKeys } from "../state/keys.js";
import {
  judgeSilentCommands,
  LivenessTicker,
  LivenessTracker,
  redisAnswers
} from "./liveness-tracker.js";
const SWEEP_EVERY_MS = 6e4;
const ABANDONED_AFTER_MS = 10 * 6e4;
function probeQueueName(processId) {
  return `live-${createHash("sha256").update(processId).digest("hex").slice(0, 16)}`;
}
class WorkerLiveness {
  #o;
  #now;
  #queueName;
  #queue;
  #tracker;
  #ticker;
  #worker;
  #seq = 0;
  #lastSweep = 0;
  constructor(options) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    this.#queueName = probeQueueName(options.processId);
    this.#queue = new Queue(this.#queueName, {
      connection: options.commands,
      prefix: stateKeys(options.root).bull,
      defaultJobOptions: { removeOnComplete: true, removeOnFail: true }
    });
    options.watch?.(`queue:${this.#queueName}`, this.#queue);
    this.#worker = this.#startWorker(options.jobs);
    this.#tracker = new LivenessTracker({
      logger: options.logger,
      now: this.#now,
      onDead: options.onDead,
      words: {
        back: "BullMQ workers take jobs again",
        dead: "BullMQ workers are stuck: exiting for the supervisor to restart the process"
      }
    });
    this.#ticker = new LivenessTicker({
      intervalMs: options.intervalMs,
      check: () => this.#check(),
      skip: () => this.#tracker.dead,
      onError: (error) => options.logger.debug({ err: error }, "liveness check failed")
    });
  }
  /** Starts probing every `intervalMs`. */
  start() {
    this.#ticker.start();
  }
  /** The current state, for `/readyz`. */
  report() {
    return this.#tracker.report();
  }
  /** Stops probing, closes the probe worker and deletes the process's probe queue. */
  async stop() {
    this.#ticker.stop();
    await this.#worker.close(true).catch(() => void 0);
    await this.#queue.obliterate({ force: true }).catch(() => void 0);
    await this.#o.commands.hdel(stateKeys(this.#o.root).liveness, this.#o.processId).catch(() => void 0);
    await this.#queue.close().catch(() => void 0);
  }
  #startWorker(connection) {
    const worker = new Worker(this.#queueName, async () => this.#alive(), {
      connection,
      prefix: stateKeys(this.#o.root).bull,
      concurrency: 1
    });
    this.#o.watch?.(`worker:${this.#queueName}`, worker);
    return worker;
  }
  #alive() {
    this.#tracker.alive(this.#now());
  }
  async #check() {
    const now = this.#now();
    if (this.#o.commands.status === "end") {
      this.#tracker.die("the Redis command connection ended and does not reconnect");
      return;
    }
    if (!await redisAnswers(this.#o.commands, this.#o.intervalMs)) {
      await judgeSilentCommands(this.#tracker, now, this.#o.timeoutMs, this.#o.reachable);
      return;
    }
    this.#tracker.recovering("waiting for a probe job to complete");
    await this.#judge(now);
    if (this.#tracker.dead) return;
    const bound = Math.max(this.#o.intervalMs, 1e3);
    await within(
      this.#o.commands.hset(stateKeys(this.#o.root).liveness, this.#o.processId, String(now)),
      bound
    );
    await within(
      this.#queue.add("probe", { at: now }, { jobId: `probe-${process.pid}-${++this.#seq}` }),
      bound
    );
    if (now - this.#lastSweep > SWEEP_EVERY_MS) await within(this.#sweepAbandoned(now), bound);
  }
  /** Stuck when a worker stopped running, or no probe completed within the timeout while Redis answers. */
  async #judge(now) {
    const stopped = this.#o.workers().filter((worker) => !worker.isRunning());
    const silentMs = now - this.#tracker.deadlineFrom;
    if (stopped.length === 0 && silentMs <= this.#o.timeoutMs) return;
    const reason = stopped.length > 0 ? `worker ${stopped.map((w) => w.name).join(", ")} stopped running` : `no probe job completed for ${Math.round(silentMs / 1e3)} s while Redis answers`;
    this.#tracker.die(reason);
  }
  /** Deletes the probe queues of processes that stopped ticking long ago (killed, not stopped). */
  async #sweepAbandoned(now) {
    this.#lastSweep = now;
    const key = stateKeys(this.#o.root).liveness;
    const seen = await this.#o.commands.hgetall(key);
    for (const [processId, at] of Object.entries(seen)) {
      if (processId === this.#o.processId || now - Number(at) < ABANDONED_AFTER_MS) continue;
      const queue = new Queue(probeQueueName(processId), {
        connection: this.#o.commands,
        prefix: stateKeys(this.#o.root).bull
      });
      await queue.obliterate({ force: true }).catch(() => void 0);
      await queue.close().catch(() => void 0);
      await this.#o.commands.hdel(key, processId);
    }
  }
}
function withLiveness(report, liveness, of = "workers") {
  if (liveness === void 0 || liveness.state === "alive" || liveness.state === "starting") return report;
  const why = liveness.reason === null ? "" : `: ${liveness.reason}`;
  return {
    ...report,
    ready: false,
    reasons: [...report.reasons, `${of} ${liveness.state}${why}`],
    ...of === "workers" ? { liveness } : { deliveryLiveness: liveness }
  };
}
async function within(promise, ms) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([
    promise.then(
      () => void 0,
      () => void 0
    ),
    timeout
  ]);
  clearTimeout(timer);
}
export {
  WorkerLiveness,
  probeQueueName,
  withLiveness
};
