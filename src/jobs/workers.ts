import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ChannelConfig } from '../config/schema.js';
import type { JobContext } from './context.js';
import { runDelivery } from './deliver.js';
import { runDigest } from './digest.js';
import { enqueueDelivery } from './dispatch.js';
import { runPoll } from './poll.js';
import { bullPrefix } from './queue-set.js';
import { deliverQueueName, QUEUE } from './queues.js';
import { runSweep } from './sweep.js';

/** A BullMQ limiter for a rate in messages per second (below one: one message per 1/rate seconds). */
export function limiterFor(ratePerSecond: number): { max: number; duration: number } {
  return ratePerSecond >= 1
    ? { max: Math.round(ratePerSecond), duration: 1_000 }
    : { max: 1, duration: Math.round(1_000 / ratePerSecond) };
}

/** The workers of one process: sweep, poll, digest, and one per delivery channel. */
export class WorkerSet {
  readonly #ctx: JobContext;
  readonly #connection: Redis;
  readonly #prefix: string;
  readonly #core: Worker[] = [];
  readonly #deliver = new Map<string, Worker>();

  constructor(ctx: JobContext, connection: Redis) {
    this.#ctx = ctx;
    this.#connection = connection;
    this.#prefix = bullPrefix(ctx.prefix);
  }

  /** Starts the core workers and one delivery worker per configured channel. */
  start(): void {
    const ctx = this.#ctx;
    const { config } = ctx.settings();
    this.#core.push(
      this.#worker(QUEUE.sweep, async () => runSweep(ctx), { concurrency: 1 }),
      this.#worker(QUEUE.poll, async (job, token) => runPoll(ctx, job, token), {
        concurrency: config.poll.concurrency,
        // Mirrors the plan's per-minute cap; it also lets a poll pause the queue on an empty budget.
        limiter: { max: config.budget.perMinute, duration: config.budget.minuteWindow },
        // A dead process's polls are found and run again within about two of these.
        lockDuration: config.poll.lockDuration,
        stalledInterval: config.poll.lockDuration,
      }),
      this.#worker(
        QUEUE.digest,
        async (job) =>
          job.name === 'heartbeat' ? this.#heartbeat() : runDigest(ctx, parseDigestData(job), ctx.now()),
        { concurrency: 1 },
      ),
    );
    this.syncChannels(config.channels);
  }

  /** Opens workers for new channels and closes those of removed ones (config reload). */
  syncChannels(channels: readonly ChannelConfig[]): void {
    const wanted = new Set(channels.map((c) => c.name));
    for (const [name, worker] of this.#deliver) {
      if (!wanted.has(name)) {
        void worker.close();
        this.#deliver.delete(name);
      }
    }
    for (const channel of channels) {
      if (this.#deliver.has(channel.name)) continue;
      const queue = this.#ctx.queues.deliver(channel.name);
      const worker = this.#worker(
        deliverQueueName(channel.name),
        async (job) =>
          runDelivery(this.#ctx, job, { channel: channel.name, pause: (ms) => queue.rateLimit(ms) }),
        {
          concurrency: 1,
          limiter: limiterFor(channel.ratePerSecond),
        },
      );
      worker.on('failed', (job, error) => {
        // Parked at once (UnrecoverableError) was counted and reported where it was decided.
        if (error instanceof UnrecoverableError) return;
        if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) void this.#parked(channel.name, error);
      });
      this.#deliver.set(channel.name, worker);
    }
  }

  /** Stops taking jobs and waits for those in flight up to `timeoutMs`, then force-closes. */
  async close(timeoutMs: number): Promise<void> {
    const workers = [...this.#core, ...this.#deliver.values()];
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
    worker.on('error', (error) => this.#ctx.logger.error({ err: error, queue: name }, 'worker error'));
    worker.on('failed', (job, error) => {
      if (error.name === 'RateLimitError' || error.name === 'DelayedError') return;
      this.#ctx.logger.warn(
        { queue: name, jobId: job?.id, attempts: job?.attemptsMade, err: error },
        'job failed',
      );
    });
    return worker;
  }

  async #parked(channel: string, error: Error): Promise<void> {
    this.#ctx.metrics.deliveries.inc({ channel, outcome: 'parked' });
    await this.#ctx.notices.raise(
      `channel-parked-${channel}`,
      'critical',
      `Deliveries to ${channel} are parked`,
      `${error.message}. Fix the channel, then run: shortwatch deliveries retry --all`,
    );
  }

  async #heartbeat(): Promise<void> {
    const { config } = this.#ctx.settings();
    if (!config.ops.channel) return;
    const channel = config.channels.find((c) => c.name === config.ops.channel);
    if (!channel) return;
    const at = this.#ctx.now().toISOString();
    await enqueueDelivery(
      this.#ctx,
      channel,
      {
        type: 'notice',
        key: 'heartbeat',
        severity: 'info',
        title: 'shortwatch heartbeat',
        text: `Alive at ${at}.`,
      },
      `hb-${at.slice(0, 16).replace(/[^0-9]/g, '')}`,
    );
  }
}

function parseDigestData(job: Job): { channel: string } {
  const channel: unknown = job.data?.channel;
  if (typeof channel !== 'string') throw new Error(`digest job ${job.id} has no channel`);
  return { channel };
}
