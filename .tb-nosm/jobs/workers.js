import { Worker } from "bullmq";
import { heartbeatDeliveryId } from "../state/delivery-ids.js";
import { runDigest } from "./digest.js";
import { runPoll } from "./poll.js";
import { bullPrefix } from "./queue-set.js";
import { QUEUE } from "./queues.js";
import {
  runSubscriberDigests,
  SUBSCRIBER_DIGEST_JOB
} from "./subscriber-digest.js";
import { runSweep } from "./sweep.js";
class WorkerSet {
  #ctx;
  #connection;
  #prefix;
  #core = [];
  constructor(ctx, connection) {
    this.#ctx = ctx;
    this.#connection = connection;
    this.#prefix = bullPrefix(ctx.prefix);
  }
  /**
   * Starts the workers: the sweep and poll workers only with an `upstream` (a registers-only process has
   * no API to poll, and a reload cannot add one), the digest worker always.
   */
  start() {
    const ctx = this.#ctx;
    if (ctx.settings().config.upstream !== void 0) this.#core.push(...this.#apiWorkers());
    this.#core.push(
      this.#worker(
        QUEUE.digest,
        async (job) => {
          if (job.name === "heartbeat") return this.#heartbeat();
          if (job.name === SUBSCRIBER_DIGEST_JOB)
            return runSubscriberDigests(ctx, parseSubscriberDigestData(job), ctx.now());
          return runDigest(ctx, parseDigestData(job), ctx.now());
        },
        { concurrency: 1 }
      )
    );
  }
  #apiWorkers() {
    const ctx = this.#ctx;
    const { config } = ctx.settings();
    return [
      // A dead process's sweep is claimed as long as its polls (BullMQ's 30 s default otherwise): until
      // it runs again, the polls it would have queued wait for the next one.
      this.#worker(QUEUE.sweep, async () => runSweep(ctx), {
        concurrency: 1,
        lockDuration: config.poll.lockDuration,
        stalledInterval: config.poll.lockDuration
      }),
      this.#worker(QUEUE.poll, async (job, token) => runPoll(ctx, job, token), {
        concurrency: config.poll.concurrency,
        // Mirrors the plan's per-minute cap; it also lets a poll pause the queue on an empty budget.
        limiter: { max: config.budget.perMinute, duration: config.budget.minuteWindow },
        // A dead process's polls are found and run again within about two of these.
        lockDuration: config.poll.lockDuration,
        stalledInterval: config.poll.lockDuration
      })
    ];
  }
  /** Every worker started, for the App to watch their `error` events (src/ops/redis-health.ts). */
  all() {
    return this.#core;
  }
  /** Stops taking jobs and waits for those in flight up to `timeoutMs`, then force-closes. */
  async close(timeoutMs) {
    const workers = this.#core;
    const graceful = Promise.all(workers.map((w) => w.close())).then(() => true);
    const timer = new Promise((resolve) => setTimeout(() => resolve(false), timeoutMs).unref());
    if (!await Promise.race([graceful, timer])) {
      await Promise.all(workers.map((w) => w.close(true)));
    }
  }
  #worker(name, processor, options) {
    const worker = new Worker(name, processor, {
      connection: this.#connection,
      prefix: this.#prefix,
      autorun: true,
      ...options
    });
    worker.on("failed", (job, error) => {
      if (error.name === "RateLimitError" || error.name === "DelayedError") return;
      const attempts = job?.opts.attempts ?? 1;
      const retrying = job !== void 0 && job.attemptsMade < attempts;
      const level = name === QUEUE.poll ? "debug" : "warn";
      this.#ctx.logger[level](
        { queue: name, jobId: job?.id, attempt: job?.attemptsMade, of: attempts, err: error },
        retrying ? "job failed; tried again after backoff" : "job failed; no attempt left"
      );
    });
    return worker;
  }
  async #heartbeat() {
    const { config } = this.#ctx.settings();
    if (!config.ops.channel) return;
    const channel = config.channels.find((c) => c.name === config.ops.channel);
    if (!channel) return;
    const at = this.#ctx.now().toISOString();
    await this.#ctx.outbox.enqueue(channel.name, heartbeatDeliveryId(channel.name, at), {
      type: "notice",
      key: "heartbeat",
      severity: "info",
      title: "shortwatch heartbeat",
      text: `Alive at ${at}.`
    });
  }
}
function parseDigestData(job) {
  const channel = job.data?.channel;
  if (typeof channel !== "string") throw new Error(`digest job ${job.id} has no channel`);
  return { channel, scheduledAt: job.opts.prevMillis ?? job.timestamp };
}
function parseSubscriberDigestData(job) {
  const { pattern, timezone } = job.data ?? {};
  if (typeof pattern !== "string" || typeof timezone !== "string")
    throw new Error(`subscriber digest job ${job.id} has no schedule`);
  return { pattern, timezone, scheduledAt: job.opts.prevMillis ?? job.timestamp };
}
export {
  WorkerSet
};
