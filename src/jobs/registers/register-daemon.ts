import { type Job, Queue, Worker } from 'bullmq';
import type { Config } from '../../config/schema.js';
import type { RedisClient } from '../../state/redis-connection.js';
import { RegisterStore } from '../../state/register-store.js';
import type { JobContext } from '../context.js';
import { bullPrefix } from '../queue-set.js';
import { KEEP_FAILED, QUEUE, SCHEDULER } from '../queues.js';
import { type RegisterPollResult, runRegisterPoll } from './register-poll.js';

/** The connections the register reads run on: commands for the queue, a blocking one for the worker. */
export interface RegisterConnections {
  commands: RedisClient;
  jobs: RedisClient;
}

/**
 * The whole-register sources of one process: a BullMQ job scheduler per configured source (every
 * `interval`, upserted by `shortwatch start` only) and one worker reading them one at a time. Kept apart
 * from the App: the App starts it, syncs it on reload and stops it.
 */
export class RegisterDaemon {
  readonly #ctx: JobContext;
  readonly #queue: Queue;
  #jobs: RedisClient;
  readonly #store: RegisterStore;
  #worker: Worker | undefined;

  constructor(ctx: JobContext, connections: RegisterConnections) {
    this.#ctx = ctx;
    this.#jobs = connections.jobs;
    this.#queue = new Queue(QUEUE.register, {
      connection: connections.commands,
      prefix: bullPrefix(ctx.prefix),
    });
    this.#store = new RegisterStore(connections.commands, ctx.prefix);
  }

  /** The store of every source's reads and health (for `status`). */
  get store(): RegisterStore {
    return this.#store;
  }

  /** Starts the worker; with `schedule`, also makes the schedulers match the config. */
  async start(options: { schedule: boolean }): Promise<void> {
    if (options.schedule) await this.sync(this.#ctx.settings().config);
    this.#startWorker();
  }

  /** The queue the schedulers add to, for the App's Redis-error watch (BullMQ prints an unwatched one's). */
  get queue(): Queue {
    return this.#queue;
  }

  /** The worker, for the App's liveness and Redis-error watch (empty before `start`). */
  all(): readonly Worker[] {
    return this.#worker === undefined ? [] : [this.#worker];
  }

  /** Starts the worker again on a new job connection (the App recreates a stuck one). */
  async restart(jobs: RedisClient): Promise<void> {
    await this.#worker?.close(true).catch(() => undefined);
    this.#jobs = jobs;
    this.#startWorker();
  }

  #startWorker(): void {
    this.#worker = new Worker(QUEUE.register, async (job: Job) => this.#run(job), {
      connection: this.#jobs,
      prefix: bullPrefix(this.#ctx.prefix),
      concurrency: 1,
    });
    this.#worker.on('failed', (job, error) =>
      this.#ctx.logger.warn({ queue: QUEUE.register, jobId: job?.id, err: error }, 'register read failed'),
    );
  }

  /** One scheduler per configured source; those of removed sources are removed. */
  async sync(config: Config): Promise<void> {
    const wanted = new Set<string>();
    for (const source of config.sources) {
      const id = SCHEDULER.register(source.name);
      wanted.add(id);
      await this.#queue.upsertJobScheduler(
        id,
        { every: source.interval },
        {
          name: 'register',
          data: { source: source.name },
          opts: { removeOnComplete: { count: 200 }, removeOnFail: KEEP_FAILED },
        },
      );
    }
    for (const scheduler of await this.#queue.getJobSchedulers(0, -1)) {
      const id = scheduler.id ?? scheduler.key;
      if (!wanted.has(id)) await this.#queue.removeJobScheduler(id);
    }
  }

  /** Stops the worker (waiting up to `timeoutMs` for a read in flight) and closes the queue. */
  async close(timeoutMs: number): Promise<void> {
    const worker = this.#worker;
    if (worker !== undefined) {
      const graceful = worker.close().then(() => true);
      const timer = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs).unref());
      if (!(await Promise.race([graceful, timer]))) await worker.close(true);
    }
    await this.#queue.close();
  }

  async #run(job: Job): Promise<RegisterPollResult> {
    const source: unknown = job.data?.source;
    if (typeof source !== 'string') throw new Error(`register job ${job.id} names no source`);
    return runRegisterPoll(this.#ctx, { store: this.#store, readAgain: this.#readAgain }, source);
  }

  /** One extra read of a source after a held-back read's `confirm.after` (deduplicated until then). */
  readonly #readAgain = async (source: string, delayMs: number): Promise<void> => {
    const delay = Math.max(0, Math.round(delayMs));
    await this.#queue.add(
      'register',
      { source },
      {
        delay,
        deduplication: { id: `again-${source}`, ttl: Math.max(1, delay) },
        removeOnComplete: { count: 200 },
        removeOnFail: KEEP_FAILED,
      },
    );
  };
}
