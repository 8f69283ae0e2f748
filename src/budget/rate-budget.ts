import type { Redis } from 'ioredis';
import { z } from 'zod';
import { BLOCK_SCRIPT, TAKE_SCRIPT } from './budget-lua.js';
import { type BudgetWindow, nextWindowStart, windowStart } from './windows.js';

/** Caps and window lengths of the shared budget (from `budget.*` in the config). */
export interface BudgetOptions {
  /** Redis key prefix of the deployment. */
  prefix: string;
  perMinute: number;
  perDay: number;
  /** Tokens of each day that only interactive takes may spend. */
  reserve: number;
  minuteMs: number;
  dayMs: number;
}

/** Why a token was refused. */
export type DenyReason = 'minute' | 'day' | 'reserve' | 'blocked';

/** The answer to one `take()`: a token, or the reason and the epoch ms when one may be available. */
export type BudgetDecision =
  | { granted: true; minuteLeft: number; dayLeft: number }
  | { granted: false; reason: DenyReason; retryAt: number };

/** One window's count. */
export interface WindowUsage {
  used: number;
  cap: number;
  left: number;
  /** Epoch ms when the window ends and its count starts again at 0. */
  resetAt: number;
}

/** Both windows, the reserve and any block, as `status` shows them. */
export interface BudgetUsage {
  minute: WindowUsage;
  day: WindowUsage;
  reserve: number;
  blockedUntil: number | null;
  blockedReason: string | null;
}

/** Longest time a request may take from its token to the upstream's count; shorter for windows under 4 s. */
const BOUNDARY_MARGIN_MS = 1_000;

const takeReply = z.union([
  z.tuple([z.literal(1), z.number(), z.number()]),
  z.tuple([z.literal(0), z.enum(['minute', 'day', 'reserve', 'blocked']), z.number()]),
]);
const countReply = z.string().regex(/^\d+$/).transform(Number).nullable();
const blockReply = z.object({ until: z.string().regex(/^\d+$/).transform(Number), reason: z.string() });

/**
 * The upstream rate budget shared by every process through Redis: two UTC-aligned fixed windows
 * (per minute, per day), a reserve for interactive commands and a block set after a 429.
 * The clock is the caller's (`now`), so processes should keep their clocks NTP-synced.
 */
export class RateBudget {
  readonly #redis: Redis;
  readonly #options: BudgetOptions;
  readonly #now: () => number;

  constructor(redis: Redis, options: BudgetOptions, now: () => number = Date.now) {
    this.#redis = redis;
    this.#options = options;
    this.#now = now;
  }

  /** Takes one token atomically; polling (non-interactive) never spends the day's last `reserve` tokens. */
  async take(options: { interactive?: boolean } = {}): Promise<BudgetDecision> {
    const now = this.#now();
    const { perMinute, perDay, reserve } = this.#options;
    const reply = await this.#redis.eval(
      TAKE_SCRIPT,
      3,
      this.#key('minute', now),
      this.#key('day', now),
      this.#blockKey(),
      now,
      perMinute,
      perDay,
      reserve,
      options.interactive ? 1 : 0,
      this.windowEnd('minute', now),
      this.windowEnd('day', now),
    );
    const parsed = takeReply.parse(reply);
    if (parsed[0] === 1) return { granted: true, minuteLeft: parsed[1], dayLeft: parsed[2] };
    return { granted: false, reason: parsed[1], retryAt: parsed[2] };
  }

  /** Stops every process from taking tokens until `untilMs` (an earlier block is never shortened). */
  async block(untilMs: number, reason: string): Promise<void> {
    await this.#redis.eval(BLOCK_SCRIPT, 1, this.#blockKey(), Math.ceil(untilMs), reason, this.#now());
  }

  /** Counts of both windows and the block, for `status`, `/readyz` and metrics. */
  async usage(): Promise<BudgetUsage> {
    const now = this.#now();
    const [minuteRaw, dayRaw, blockRaw] = await Promise.all([
      this.#redis.get(this.#key('minute', now)),
      this.#redis.get(this.#key('day', now)),
      this.#redis.hgetall(this.#blockKey()),
    ]);
    const block = blockReply.safeParse(blockRaw);
    const blocked = block.success && block.data.until > now ? block.data : null;
    return {
      minute: this.#window(
        countReply.parse(minuteRaw) ?? 0,
        this.#options.perMinute,
        this.windowEnd('minute', now),
      ),
      day: this.#window(countReply.parse(dayRaw) ?? 0, this.#options.perDay, this.windowEnd('day', now)),
      reserve: this.#options.reserve,
      blockedUntil: blocked?.until ?? null,
      blockedReason: blocked?.reason ?? null,
    };
  }

  /**
   * Epoch ms from which a token may be taken so that its request reaches the upstream inside the windows
   * that paid for it: `at` itself, or the next window's start when `at` is within a margin of a window's
   * end (a request granted there could arrive in the next window, which the upstream counts but we do not).
   */
  sendableFrom(at: number = this.#now()): number {
    const margin = Math.min(BOUNDARY_MARGIN_MS, this.#options.minuteMs / 4);
    const ends = (['minute', 'day'] as const).map((window) => this.windowEnd(window, at));
    return Math.max(at, ...ends.filter((end) => end - at < margin));
  }

  /** Epoch ms when the window holding `at` ends (the start of the next one). */
  windowEnd(window: BudgetWindow, at: number = this.#now()): number {
    return nextWindowStart(at, this.#length(window));
  }

  #window(used: number, cap: number, resetAt: number): WindowUsage {
    return { used, cap, left: Math.max(0, cap - used), resetAt };
  }

  #length(window: BudgetWindow): number {
    return window === 'minute' ? this.#options.minuteMs : this.#options.dayMs;
  }

  #key(window: BudgetWindow, at: number): string {
    return `${this.#options.prefix}:budget:${window}:${windowStart(at, this.#length(window))}`;
  }

  #blockKey(): string {
    return `${this.#options.prefix}:budget:blocked`;
  }
}
