import { createHash } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { stateKeys } from '../state/keys.js';
import type { RedisClient } from '../state/redis-connection.js';
import type { Logger } from '../telemetry/logger.js';
import {
  judgeSilentCommands,
  type LivenessReport,
  LivenessTicker,
  LivenessTracker,
  redisAnswers,
} from './liveness-tracker.js';
import type { BullEmitter } from './redis-health.js';

// After a failover a BullMQ worker can stop taking jobs while it still reports isRunning() and emits no
// error (BullMQ #4378, #648, #3185). Nothing else would notice: jobs just wait. So every daemon process
// proves its own workers alive: every `interval` it adds a probe job to a queue of its own (named by its
// process id, so no other process can take it), and a worker of that queue, on the same job connection
// as the process's other workers, completes it. No probe completed within `timeout` while Redis answers
// means the workers are stuck: the process asks to exit (non-zero) so that its supervisor restarts it
// (crash-only: a worker rebuilt in place on a new connection is what BullMQ's own bugs leave half-done).
// A Redis that does not answer is an outage, not a stuck worker: the deadline waits for it.

/** How often the registry of probe queues is swept for those of processes long gone. */
const SWEEP_EVERY_MS = 60_000;
/** A probe queue whose process has not ticked for this long is deleted by any other process. */
const ABANDONED_AFTER_MS = 10 * 60_000;

export type { LivenessReport } from './liveness-tracker.js';

/** What a liveness check is given; everything from outside. */
export interface LivenessOptions {
  /** The deployment's tagged key root. */
  root: string;
  processId: string;
  intervalMs: number;
  timeoutMs: number;
  /** The command connection: probes are added and Redis is pinged through it, not the job connection. */
  commands: RedisClient;
  /** Whether a new connection reaches Redis (the referee when the command connection is silent). */
  reachable: () => Promise<boolean>;
  /** The process's job connection (the probe worker runs on it, like the other workers). */
  jobs: RedisClient;
  logger: Logger;
  now?: () => number;
  /** The process's other BullMQ workers: one that stopped running is stuck at once (#648). */
  workers: () => ReadonlyArray<{ readonly name: string; isRunning(): boolean }>;
  /** Called once when the workers are stuck: the process should exit non-zero. */
  onDead: (reason: string) => void;
  /** Called with each probe worker made (to watch its `error` events). */
  watch?: (name: string, emitter: BullEmitter) => void;
}

/** The name of a process's own probe queue: a short hash, as BullMQ names allow no `:`. */
export function probeQueueName(processId: string): string {
  return `live-${createHash('sha256').update(processId).digest('hex').slice(0, 16)}`;
}

/** Proves, in one daemon process, that its BullMQ workers still take jobs; see the comment above. */
export class WorkerLiveness {
  readonly #o: LivenessOptions;
  readonly #now: () => number;
  readonly #queueName: string;
  readonly #queue: Queue;
  readonly #tracker: LivenessTracker;
  readonly #ticker: LivenessTicker;
  readonly #worker: Worker;
  #seq = 0;
  #lastSweep = 0;

  constructor(options: LivenessOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    this.#queueName = probeQueueName(options.processId);
    this.#queue = new Queue(this.#queueName, {
      connection: options.commands,
      prefix: stateKeys(options.root).bull,
      defaultJobOptions: { removeOnComplete: true, removeOnFail: true },
    });
    options.watch?.(`queue:${this.#queueName}`, this.#queue);
    this.#worker = this.#startWorker(options.jobs);
    this.#tracker = new LivenessTracker({
      logger: options.logger,
      now: this.#now,
      onDead: options.onDead,
      words: {
        back: 'BullMQ workers take jobs again',
        dead: 'BullMQ workers are stuck: exiting for the supervisor to restart the process',
      },
    });
    this.#ticker = new LivenessTicker({
      intervalMs: options.intervalMs,
      check: () => this.#check(),
      skip: () => this.#tracker.dead,
      onError: (error) => options.logger.debug({ err: error }, 'liveness check failed'),
    });
  }

  /** Starts probing every `intervalMs`. */
  start(): void {
    this.#ticker.start();
  }

  /** The current state, for `/readyz`. */
  report(): LivenessReport {
    return this.#tracker.report();
  }

  /** Stops probing, closes the probe worker and deletes the process's probe queue. */
  async stop(): Promise<void> {
    this.#ticker.stop();
    await this.#worker.close(true).catch(() => undefined);
    await this.#queue.obliterate({ force: true }).catch(() => undefined);
    await this.#o.commands.hdel(stateKeys(this.#o.root).liveness, this.#o.processId).catch(() => undefined);
    await this.#queue.close().catch(() => undefined);
  }

  #startWorker(connection: RedisClient): Worker {
    const worker = new Worker(this.#queueName, async () => this.#alive(), {
      connection,
      prefix: stateKeys(this.#o.root).bull,
      concurrency: 1,
    });
    this.#o.watch?.(`worker:${this.#queueName}`, worker);
    return worker;
  }

  #alive(): void {
    this.#tracker.alive(this.#now());
  }

  async #check(): Promise<void> {
    const now = this.#now();
    if (this.#o.commands.status === 'end') {
      // The command connection gave up for good (ioredis never leaves `end`); only a restart helps.
      this.#tracker.die('the Redis command connection ended and does not reconnect');
      return;
    }
    if (!(await redisAnswers(this.#o.commands, this.#o.intervalMs))) {
      await judgeSilentCommands(this.#tracker, now, this.#o.timeoutMs, this.#o.reachable);
      return;
    }
    this.#tracker.recovering('waiting for a probe job to complete');
    await this.#judge(now);
    if (this.#tracker.dead) return;
    // Each write bounded: one that hangs must not stall the next ticks (they decide, not this one).
    const bound = Math.max(this.#o.intervalMs, 1_000);
    await within(
      this.#o.commands.hset(stateKeys(this.#o.root).liveness, this.#o.processId, String(now)),
      bound,
    );
    await within(
      this.#queue.add('probe', { at: now }, { jobId: `probe-${process.pid}-${++this.#seq}` }),
      bound,
    );
    if (now - this.#lastSweep > SWEEP_EVERY_MS) await within(this.#sweepAbandoned(now), bound);
  }

  /** Stuck when a worker stopped running, or no probe completed within the timeout while Redis answers. */
  async #judge(now: number): Promise<void> {
    const stopped = this.#o.workers().filter((worker) => !worker.isRunning());
    const silentMs = now - this.#tracker.deadlineFrom;
    if (stopped.length === 0 && silentMs <= this.#o.timeoutMs) return;
    const reason =
      stopped.length > 0
        ? `worker ${stopped.map((w) => w.name).join(', ')} stopped running`
        : `no probe job completed for ${Math.round(silentMs / 1000)} s while Redis answers`;
    this.#tracker.die(reason);
  }

  /** Deletes the probe queues of processes that stopped ticking long ago (killed, not stopped). */
  async #sweepAbandoned(now: number): Promise<void> {
    this.#lastSweep = now;
    const key = stateKeys(this.#o.root).liveness;
    const seen = await this.#o.commands.hgetall(key);
    for (const [processId, at] of Object.entries(seen)) {
      if (processId === this.#o.processId || now - Number(at) < ABANDONED_AFTER_MS) continue;
      const queue = new Queue(probeQueueName(processId), {
        connection: this.#o.commands,
        prefix: stateKeys(this.#o.root).bull,
      });
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close().catch(() => undefined);
      await this.#o.commands.hdel(key, processId);
    }
  }
}

/**
 * Adds a liveness state to a readiness report: a state other than `alive`/`starting` makes it not ready,
 * with a reason (`workers …` for the BullMQ workers, `delivery …` for the delivery path), and the record
 * in the body (`liveness`, or `deliveryLiveness`); a healthy one leaves the report as it was.
 */
export function withLiveness<R extends { ready: boolean; reasons: string[] }>(
  report: R,
  liveness: LivenessReport | undefined,
  of: 'workers' | 'delivery' = 'workers',
): R & { liveness?: LivenessReport; deliveryLiveness?: LivenessReport } {
  if (liveness === undefined || liveness.state === 'alive' || liveness.state === 'starting') return report;
  const why = liveness.reason === null ? '' : `: ${liveness.reason}`;
  return {
    ...report,
    ready: false,
    reasons: [...report.reasons, `${of} ${liveness.state}${why}`],
    ...(of === 'workers' ? { liveness } : { deliveryLiveness: liveness }),
  };
}

/** Waits for `promise` at most `ms`; a rejection or the timeout both just end the wait. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([
    promise.then(
      () => undefined,
      () => undefined,
    ),
    timeout,
  ]);
  clearTimeout(timer);
}
