import { type Job, Worker } from 'bullmq';
import { heartbeatDeliveryId } from '../state/delivery-ids.js';
import type { RedisClient } from '../state/redis-connection.js';
import type { JobContext } from './context.js';
import { type DigestJobData, runDigest } from './digest.js';
import { runPoll } from './poll.js';
import { bullPrefix } from './queue-set.js';
import { QUEUE } from './queues.js';
import {
  runSubscriberDigests,
  SUBSCRIBER_DIGEST_JOB,
  type SubscriberDigestJobData,
} from './subscriber-digest.js';
import { runSweep } from './sweep.js';

/** The BullMQ workers of one process: sweep and poll (with an upstream), and digest (with the heartbeat). */
export class WorkerSet {
  readonly #ctx: JobContext;
  readonly #connection: RedisClient;
  readonly #prefix: string;
  readonly #core: Worker[] = [];

  constructor(ctx: JobContext, connection: RedisClient) {
    this.#ctx = ctx;
    this.#connection = connection;
    this.#prefix = bullPrefix(ctx.prefix);
  }

  /**
   * Starts the workers: the sweep and poll workers only with an `upstream` (a registers-only process has
   * no API to poll, and a reload cannot add one), the digest worker always.
   */
  start(): void {
    const ctx = this.#ctx;
    if (ctx.settings().config.upstream !== undefined) this.#core.push(...this.#apiWorkers());
    this.#core.push(
      this.#worker(
        QUEUE.digest,
        async (job) => {
          if (job.name === 'heartbeat') return this.#heartbeat();
          if (job.name === SUBSCRIBER_DIGEST_JOB)
            return runSubscriberDigests(ctx, parseSubscriberDigestData(job), ctx.now());
          return runDigest(ctx, parseDigestData(job), ctx.now());
        },
        { concurrency: 1 },
      ),
    );
  }

  #apiWorkers(): Worker[] {
    const ctx = this.#ctx;
    const { config } = ctx.settings();
    return [
      // A dead process's sweep is claimed as long as its polls (BullMQ's 30 s default otherwise): until
      // it runs again, the polls it would have queued wait for the next one.
      this.#worker(QUEUE.sweep, async () => runSweep(ctx), {
        concurrency: 1,
        lockDuration: config.poll.lockDuration,
        stalledInterval: config.poll.lockDuration,
      }),
      this.#worker(QUEUE.poll, async (job, token) => runPoll(ctx, job, token), {
        concurrency: config.poll.concurrency,
        // Mirrors the plan's per-minute cap; it also lets a poll pause the queue on an empty budget.
        limiter: { max: config.budget.perMinute, duration: config.budget.minuteWindow },
        // A dead process's polls are found and run again within about two of these.
        lockDuration: config.poll.lockDuration,
        stalledInterval: config.poll.lockDuration,
      }),
    ];
  }

  /** Every worker started, for the App to watch their `error` events (src/ops/redis-health.ts). */
  all(): readonly Worker[] {
    return this.#core;
  }

  /** Stops taking jobs and waits for those in flight up to `timeoutMs`, then force-closes. */
  async close(timeoutMs: number): Promise<void> {
    const workers = this.#core;
    const graceful = Promise.all(workers.map((w) => w.close())).then(() => true);
    const timer = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs).unref());
    if (!(await Promise.race([graceful, timer]))) {
      // Jobs still running are left to BullMQ's stalled-job recovery: another process picks them up.
      await Promise.all(workers.map((w) => w.close(true)));
    }
  }

  #worker(
    name: string,
    processor: (job: Job, token?: string) => Promise<unknown>,
    options: {
      concurrency: number;
      limiter?: { max: number; duration: number };
      lockDuration?: number;
      stalledInterval?: number;
    },
  ): Worker {
    const worker = new Worker(name, processor, {
      connection: this.#connection,
      prefix: this.#prefix,
      autorun: true,
      ...options,
    });
    // `error` events are the App's RedisHealth's to log: once per Redis outage, not once per retry.
    worker.on('failed', (job, error) => {
      if (error.name === 'RateLimitError' || error.name === 'DelayedError') return;
      // One line per failure, its stack at debug level only. A poll's failure is logged by the poll itself
      // (jobs/poll.ts: issuer, cause, streak): here it would be a second line for the same failure.
      const attempts = job?.opts.attempts ?? 1;
      const retrying = job !== undefined && job.attemptsMade < attempts;
      const level = name === QUEUE.poll ? 'debug' : 'warn';
      this.#ctx.logger[level](
        { queue: name, jobId: job?.id, attempt: job?.attemptsMade, of: attempts, err: error },
        retrying ? 'job failed; tried again after backoff' : 'job failed; no attempt left',
      );
    });
    return worker;
  }

  async #heartbeat(): Promise<void> {
    const { config } = this.#ctx.settings();
    if (!config.ops.channel) return;
    const channel = config.channels.find((c) => c.name === config.ops.channel);
    if (!channel) return;
    const at = this.#ctx.now().toISOString();
    await this.#ctx.outbox.enqueue(channel.name, heartbeatDeliveryId(channel.name, at), {
      type: 'notice',
      key: 'heartbeat',
      severity: 'info',
      title: 'shortwatch heartbeat',
      text: `Alive at ${at}.`,
    });
  }
}

function parseDigestData(job: Job): DigestJobData {
  const channel: unknown = job.data?.channel;
  if (typeof channel !== 'string') throw new Error(`digest job ${job.id} has no channel`);
  // A scheduler's job carries the time it was planned for; the same on every retry and stalled re-run.
  return { channel, scheduledAt: job.opts.prevMillis ?? job.timestamp };
}

function parseSubscriberDigestData(job: Job): SubscriberDigestJobData {
  const { pattern, timezone }: { pattern?: unknown; timezone?: unknown } = job.data ?? {};
  if (typeof pattern !== 'string' || typeof timezone !== 'string')
    throw new Error(`subscriber digest job ${job.id} has no schedule`);
  return { pattern, timezone, scheduledAt: job.opts.prevMillis ?? job.timestamp };
}
