import { z } from 'zod';
import { ledgerKeys } from '../state/keys.js';
import { LedgerSpenders } from '../state/ledger-spenders.js';
import type { RedisClient } from '../state/redis-connection.js';
import { type RequestPurpose, RequestTally } from '../state/request-tally.js';
import { BLOCK_SCRIPT, END_PROBE_SCRIPT, PROBE_SCRIPT, TAKE_SCRIPT, USAGE_SCRIPT } from './budget-lua.js';
import { toCallerClock } from './redis-clock.js';
import { type BudgetWindow, boundaryMargin } from './windows.js';

/** Caps and window lengths of the shared budget (from `budget.*` in the config), and where it counts. */
export interface BudgetOptions {
  /**
   * The tagged root of the upstream credential's ledger (state/keys.ts `ledgerRoot`): every deployment
   * on this Redis with the same base URL and key counts in it, as the upstream counts them together.
   */
  ledger: string;
  perMinute: number;
  perDay: number;
  /** Tokens of each day that only interactive takes may spend. */
  reserve: number;
  minuteMs: number;
  dayMs: number;
}

/** Why a token was refused; `window-end` only when the take asked to hold near a window's end. */
export type DenyReason = 'minute' | 'day' | 'reserve' | 'blocked' | 'window-end';

/**
 * The answer to one `take()`. It tells this caller when to come back, so `retryAt` is on the caller's
 * clock (`now`), translated from Redis' time: `retryAt - now()` is the right wait on any host.
 * `redisAt` is Redis' time of the decision.
 */
export type BudgetDecision =
  | {
      granted: true;
      minuteLeft: number;
      dayLeft: number;
      /** Set when this token is the rate-limit probe: pass it to {@link RateBudget.endProbe} once answered. */
      probeClaim: number | null;
      redisAt: number;
    }
  | { granted: false; reason: DenyReason; retryAt: number; retryInMs: number; redisAt: number };

/** One window's count. */
export interface WindowUsage {
  used: number;
  cap: number;
  left: number;
  /** Epoch ms (Redis' clock) when the window ends and its count starts again at 0. */
  resetAt: number;
}

/** Probing after a 429 without Retry-After: one request every `everyMs` asks whether the limit lifted. */
export interface RateLimitProbing {
  /** The window the 429 named: `day`, or `unknown` when it named none we know. */
  window: string;
  everyMs: number;
  /** Epoch ms (Redis' clock) when probing began. */
  since: number;
}

/**
 * Both windows, the reserve and any block, as `status`, `/readyz` and metrics show them. Shared state is
 * told on the shared clock: every instant is Redis' time, the same from any process; a wait is the
 * instant minus `redisAt`.
 */
export interface BudgetUsage {
  minute: WindowUsage;
  day: WindowUsage;
  reserve: number;
  /** Epoch ms (Redis' clock) before which no token is granted; while probing, the next probe. */
  blockedUntil: number | null;
  /** Why, starting with a code: `rate-limited`, `rate-limited-minute`, `rate-limited-day-probing`, … */
  blockedReason: string | null;
  probing: RateLimitProbing | null;
  /** Redis' time the counts were read at. */
  redisAt: number;
}

/** What a 429 did to the block: the epoch ms (Redis' clock) it now lasts until, and whether it changed. */
export interface BlockResult {
  changed: boolean;
  until: number;
  probing: boolean;
  /** Redis' time of the change. */
  redisAt: number;
}

const takeReply = z.union([
  z.tuple([z.literal(1), z.number(), z.number(), z.number(), z.number()]),
  z.tuple([
    z.literal(0),
    z.enum(['minute', 'day', 'reserve', 'blocked', 'window-end']),
    z.number(),
    z.number(),
  ]),
]);
const flag = z.union([z.literal(0), z.literal(1)]);
const blockReply = z.tuple([flag, z.number(), z.number(), flag]);
const optionalMs = z.union([
  z.literal('').transform(() => null),
  z.string().regex(/^\d+$/).transform(Number),
]);
const usageReply = z.tuple([
  z.number(),
  z.number(),
  z.number(),
  z.number(),
  z.number(),
  optionalMs,
  z.string(),
  z.string(),
  z.string(),
  optionalMs,
  optionalMs,
]);

/**
 * The upstream rate budget shared by every process through Redis: two fixed windows (per minute, per
 * day, aligned on multiples of their length by Redis' clock), a reserve for interactive commands, and a
 * block set after a 429, all in the credential's ledger, with the tally of calls by purpose beside them.
 * `now` is the caller's clock, used only to tell a refused caller when to retry.
 */
export class RateBudget {
  readonly #redis: RedisClient;
  #options: BudgetOptions;
  #tally: RequestTally;
  readonly #now: () => number;

  constructor(redis: RedisClient, options: BudgetOptions, now: () => number = Date.now) {
    this.#redis = redis;
    this.#options = options;
    this.#tally = new RequestTally(redis, options.ledger);
    this.#now = now;
  }

  /**
   * New caps and window lengths from a reloaded config, used from the next take on, and the ledger of
   * its credential (a new key or base URL counts in its own). The counts already taken in the current
   * windows stay: lowering a cap below them refuses tokens until the window ends.
   */
  configure(options: BudgetOptions): void {
    if (options.ledger !== this.#options.ledger) this.#tally = new RequestTally(this.#redis, options.ledger);
    this.#options = options;
  }

  /** Counts one upstream call of `purpose` in the tally of the current day window (its retries are not calls). */
  async countCall(purpose: RequestPurpose): Promise<void> {
    await this.#tally.count(purpose, this.#options.dayMs);
  }

  /** The calls of the day window starting at `dayStart` (Redis' clock, from `usage().day`), by purpose. */
  async calls(dayStart: number): Promise<Record<RequestPurpose, number>> {
    return this.#tally.read(dayStart);
  }

  /** Who spends the current credential's budget: the deployments whose daemons beat in its ledger. */
  get spenders(): LedgerSpenders {
    return new LedgerSpenders(this.#redis, this.#options.ledger);
  }

  /**
   * Takes one token atomically; polling (non-interactive) never spends the day's last `reserve` tokens.
   * With `holdNearWindowEnd`, a take too close to a window's end is refused as `window-end`.
   */
  async take(options: { interactive?: boolean; holdNearWindowEnd?: boolean } = {}): Promise<BudgetDecision> {
    const { perMinute, perDay, reserve, minuteMs, dayMs } = this.#options;
    const reply = await this.#redis.eval(
      TAKE_SCRIPT,
      3,
      this.#keys.budgetWindow('minute'),
      this.#keys.budgetWindow('day'),
      this.#keys.budgetBlocked,
      perMinute,
      perDay,
      reserve,
      options.interactive ? 1 : 0,
      minuteMs,
      dayMs,
      options.holdNearWindowEnd ? boundaryMargin(minuteMs) : 0,
    );
    const parsed = takeReply.parse(reply);
    if (parsed[0] === 1) {
      const [, minuteLeft, dayLeft, redisAt, probe] = parsed;
      return { granted: true, minuteLeft, dayLeft, probeClaim: probe > 0 ? probe : null, redisAt };
    }
    const [, reason, retryAtRedis, redisAt] = parsed;
    return {
      granted: false,
      reason,
      retryAt: toCallerClock(retryAtRedis, redisAt, this.#now()),
      retryInMs: retryAtRedis - redisAt,
      redisAt,
    };
  }

  /** Stops every process from taking tokens for `ms` from now by Redis' clock (a longer block stays). */
  async blockFor(ms: number, reason: string): Promise<BlockResult> {
    return this.#block('for', Math.ceil(ms), reason);
  }

  /** Stops every process until Redis' time leaves the current `window` (a longer block stays). */
  async blockUntilWindowEnd(window: BudgetWindow, reason: string): Promise<BlockResult> {
    return this.#block('window', this.#length(window), reason);
  }

  /**
   * After a 429 without Retry-After for the day window or an unnamed one: refuses tokens until the first
   * probe (the earlier of `everyMs` and the end of our own `firstProbeBy` window), then grants one probe
   * token every `everyMs` until {@link endProbe}. `changed` is true for the call that began probing.
   */
  async probeAfterRateLimit(options: {
    window: string;
    everyMs: number;
    firstProbeBy: BudgetWindow;
    reason: string;
  }): Promise<BlockResult> {
    const reply = await this.#redis.eval(
      PROBE_SCRIPT,
      1,
      this.#keys.budgetBlocked,
      options.everyMs,
      this.#length(options.firstProbeBy),
      options.reason,
      options.window,
      this.#options.dayMs,
    );
    return blockResult(blockReply.parse(reply));
  }

  /** Ends probing when the probe that claimed `probeClaim` got an answer; true when the block was lifted. */
  async endProbe(probeClaim: number): Promise<boolean> {
    return (await this.#redis.eval(END_PROBE_SCRIPT, 1, this.#keys.budgetBlocked, probeClaim)) === 1;
  }

  /**
   * Carries a budget kept under a deployment's own prefix (before the ledger belonged to the credential)
   * into the ledger, then deletes it: today's count and a 429 block survive the upgrade, so it spends no
   * more than the upstream's cap allows. The keys are in two Cluster slots, so this is no script: it runs
   * once at start, before the daemon takes a token, and takes the larger count and the later block.
   */
  async adoptDeploymentBudget(deploymentRoot: string): Promise<void> {
    const old = ledgerKeys(deploymentRoot);
    const keys = this.#keys;
    for (const window of ['minute', 'day'] as const) {
      const [was, is] = await Promise.all([
        this.#redis.hgetall(old.budgetWindow(window)),
        this.#redis.hgetall(keys.budgetWindow(window)),
      ]);
      const [start, used] = [Number(was.start), Number(was.used)];
      if (!Number.isFinite(start) || !Number.isFinite(used)) continue;
      const [nowStart, nowUsed] = [Number(is.start ?? Number.NaN), Number(is.used ?? 0)];
      if (Number.isFinite(nowStart) && (nowStart > start || (nowStart === start && nowUsed >= used)))
        continue;
      const lengthMs = this.#length(window);
      await this.#redis
        .multi()
        .hset(keys.budgetWindow(window), 'start', start, 'used', used)
        .pexpireat(keys.budgetWindow(window), start + 2 * lengthMs)
        .exec();
    }
    const [block, current] = await Promise.all([
      this.#redis.hgetall(old.budgetBlocked),
      this.#redis.hgetall(keys.budgetBlocked),
    ]);
    const until = Number(block.until);
    if (Number.isFinite(until) && !(Number(current.until) >= until)) {
      await this.#redis
        .multi()
        .del(keys.budgetBlocked)
        .hset(keys.budgetBlocked, block)
        // As the block script keeps a probing block: a day window past its `until`.
        .pexpireat(keys.budgetBlocked, until + this.#length('day'))
        .exec();
    }
    await this.#redis.del(
      old.budgetWindow('minute'),
      old.budgetWindow('day'),
      old.budgetBlocked,
      old.requestTally,
    );
  }

  /** Counts of the current windows by Redis' clock, and the block, for `status`, `/readyz` and metrics. */
  async usage(): Promise<BudgetUsage> {
    const { minuteMs, dayMs, perMinute, perDay, reserve } = this.#options;
    const reply = await this.#redis.eval(
      USAGE_SCRIPT,
      3,
      this.#keys.budgetWindow('minute'),
      this.#keys.budgetWindow('day'),
      this.#keys.budgetBlocked,
      minuteMs,
      dayMs,
    );
    const [redisAt, minuteStart, minuteUsed, dayStart, dayUsed, until, reason, mode, window, every, since] =
      usageReply.parse(reply);
    const probing =
      mode === 'probe' && every !== null ? { window, everyMs: every, since: since ?? redisAt } : null;
    const blocked = until !== null && until > redisAt;
    return {
      minute: windowUsage(minuteUsed, perMinute, minuteStart + minuteMs),
      day: windowUsage(dayUsed, perDay, dayStart + dayMs),
      reserve,
      blockedUntil: blocked ? until : null,
      blockedReason: (blocked || probing) && reason !== '' ? reason : null,
      probing,
      redisAt,
    };
  }

  async #block(how: 'for' | 'window', ms: number, reason: string): Promise<BlockResult> {
    const { dayMs } = this.#options;
    const reply = await this.#redis.eval(BLOCK_SCRIPT, 1, this.#keys.budgetBlocked, how, ms, reason, dayMs);
    return blockResult(blockReply.parse(reply));
  }

  #length(window: BudgetWindow): number {
    return window === 'minute' ? this.#options.minuteMs : this.#options.dayMs;
  }

  get #keys() {
    return ledgerKeys(this.#options.ledger);
  }
}

function blockResult([changed, until, redisAt, probing]: z.infer<typeof blockReply>): BlockResult {
  return { changed: changed === 1, until, probing: probing === 1, redisAt };
}

function windowUsage(used: number, cap: number, resetAt: number): WindowUsage {
  return { used, cap, left: Math.max(0, cap - used), resetAt };
}
