import type { RedisClient } from '../state/redis-connection.js';
import type { Logger } from '../telemetry/logger.js';

/** What a liveness check says: `/readyz` is degraded unless `alive` (or `starting`). */
export interface LivenessReport {
  state: 'starting' | 'alive' | 'redis-down' | 'recovering' | 'stuck';
  /** Epoch ms (host clock) of the last proof that came through; null before the first. */
  lastAliveAt: number | null;
  /** Why the state is not `alive`. */
  reason: string | null;
}

/** The log lines of one watch, naming what it proves alive. */
export interface LivenessWords {
  /** Info, when a proof comes through after a problem. */
  back: string;
  /** Fatal, when it is stuck: the process exits for its supervisor to restart it. */
  dead: string;
}

/**
 * The state both liveness watches keep (the BullMQ workers', worker-liveness.ts, and the delivery path's,
 * delivery-liveness.ts): alive, redis-down, recovering or stuck, and the instant a proof must beat the
 * timeout from. Stuck is final: the process asks to exit, for its supervisor to restart it (crash-only:
 * connections rebuilt in place keep half a process's state and lose the other half).
 */
export class LivenessTracker {
  state: LivenessReport['state'] = 'starting';
  reason: string | null = null;
  /** The deadline runs from the latest of: start, the last proof, the end of an outage, a recreation. */
  deadlineFrom: number;
  dead = false;
  #lastAliveAt: number | null = null;
  readonly #o: { logger: Logger; words: LivenessWords; now: () => number; onDead: (reason: string) => void };

  constructor(options: {
    logger: Logger;
    words: LivenessWords;
    now: () => number;
    onDead: (reason: string) => void;
  }) {
    this.#o = options;
    this.deadlineFrom = options.now();
  }

  report(): LivenessReport {
    const { state, reason } = this;
    return { state, lastAliveAt: this.#lastAliveAt, reason };
  }

  /** Redis does not answer: nothing can be proven, and the deadline starts again once it does. */
  redisDown(now: number): void {
    this.state = 'redis-down';
    this.reason = 'redis does not answer';
    this.deadlineFrom = now;
  }

  /** Redis answers again after an outage: the watched part has yet to prove it does too. */
  recovering(waitingFor: string): void {
    if (this.state !== 'redis-down') return;
    this.state = 'recovering';
    this.reason = `redis answers again; ${waitingFor}`;
  }

  /** A proof came through at `now`; true when the state was not `alive` before. */
  alive(now: number): boolean {
    const was = this.state;
    this.#lastAliveAt = now;
    this.deadlineFrom = now;
    if (was !== 'alive' && was !== 'starting')
      this.#o.logger.info({ after: this.reason }, this.#o.words.back);
    this.state = 'alive';
    this.reason = null;
    return was !== 'alive';
  }

  /** Gives up: the `onDead` listener asks the process to exit non-zero, for its supervisor to restart it. */
  die(reason: string): void {
    this.dead = true;
    this.state = 'stuck';
    this.reason = reason;
    this.#o.logger.fatal({ reason }, this.#o.words.dead);
    this.#o.onDead(reason);
  }
}

/**
 * After the command connection did not answer a ping: an outage when a new connection does not reach
 * Redis either (the deadline waits for it), else that connection is stuck (half-open after a failover,
 * its bytes lost) and, past the timeout, the process is dead: nothing would ever answer on it again.
 */
export async function judgeSilentCommands(
  tracker: LivenessTracker,
  now: number,
  timeoutMs: number,
  reachable: () => Promise<boolean>,
): Promise<void> {
  if (!(await reachable())) {
    tracker.redisDown(now);
    return;
  }
  tracker.state = 'recovering';
  tracker.reason = 'the command connection does not answer while a new connection reaches Redis';
  if (now - tracker.deadlineFrom > timeoutMs) tracker.die(tracker.reason);
}

/** Whether Redis answers a ping; one that waits on reconnects counts as no answer, bounded under an interval. */
export function redisAnswers(commands: Pick<RedisClient, 'ping'>, intervalMs: number): Promise<boolean> {
  const timeout = new Promise<false>((resolve) =>
    setTimeout(() => resolve(false), Math.min(intervalMs, 2_000)).unref(),
  );
  const ping = commands.ping().then(
    () => true,
    () => false,
  );
  return Promise.race([ping, timeout]);
}

/** Runs `check` at once and every `intervalMs`, never two at once and never after `stop` or death. */
export class LivenessTicker {
  readonly #intervalMs: number;
  readonly #check: () => Promise<void>;
  readonly #skip: () => boolean;
  readonly #onError: (error: unknown) => void;
  #timer: NodeJS.Timeout | undefined;
  #ticking = false;

  constructor(options: {
    intervalMs: number;
    check: () => Promise<void>;
    /** True when no more checks should run (the watch died). */
    skip: () => boolean;
    /** A check that failed half-way proves nothing either way: the next tick decides. */
    onError: (error: unknown) => void;
  }) {
    this.#intervalMs = options.intervalMs;
    this.#check = options.check;
    this.#skip = options.skip;
    this.#onError = options.onError;
  }

  start(): void {
    void this.#tick();
    this.#timer = setInterval(() => void this.#tick(), this.#intervalMs).unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
  }

  async #tick(): Promise<void> {
    if (this.#ticking || this.#skip()) return;
    this.#ticking = true;
    try {
      await this.#check();
    } catch (error) {
      this.#onError(error);
    } finally {
      this.#ticking = false;
    }
  }
}
