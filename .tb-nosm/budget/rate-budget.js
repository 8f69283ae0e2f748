import { z } from "zod";
import { ledgerKeys } from "../state/keys.js";
import { LedgerSpenders } from "../state/ledger-spenders.js";
import { RequestTally } from "../state/request-tally.js";
import { BLOCK_SCRIPT, END_PROBE_SCRIPT, PROBE_SCRIPT, TAKE_SCRIPT, USAGE_SCRIPT } from "./budget-lua.js";
import { toCallerClock } from "./redis-clock.js";
import { boundaryMargin } from "./windows.js";
const takeReply = z.union([
  z.tuple([z.literal(1), z.number(), z.number(), z.number(), z.number()]),
  z.tuple([
    z.literal(0),
    z.enum(["minute", "day", "reserve", "blocked", "window-end"]),
    z.number(),
    z.number()
  ])
]);
const flag = z.union([z.literal(0), z.literal(1)]);
const blockReply = z.tuple([flag, z.number(), z.number(), flag]);
const optionalMs = z.union([
  z.literal("").transform(() => null),
  z.string().regex(/^\d+$/).transform(Number)
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
  optionalMs
]);
class RateBudget {
  #redis;
  #options;
  #tally;
  #now;
  constructor(redis, options, now = Date.now) {
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
  configure(options) {
    if (options.ledger !== this.#options.ledger) this.#tally = new RequestTally(this.#redis, options.ledger);
    this.#options = options;
  }
  /** Counts one upstream call of `purpose` in the tally of the current day window (its retries are not calls). */
  async countCall(purpose) {
    await this.#tally.count(purpose, this.#options.dayMs);
  }
  /** The calls of the day window starting at `dayStart` (Redis' clock, from `usage().day`), by purpose. */
  async calls(dayStart) {
    return this.#tally.read(dayStart);
  }
  /** Who spends the current credential's budget: the deployments whose daemons beat in its ledger. */
  get spenders() {
    return new LedgerSpenders(this.#redis, this.#options.ledger);
  }
  /**
   * Takes one token atomically; polling (non-interactive) never spends the day's last `reserve` tokens.
   * With `holdNearWindowEnd`, a take too close to a window's end is refused as `window-end`.
   */
  async take(options = {}) {
    const { perMinute, perDay, reserve, minuteMs, dayMs } = this.#options;
    const reply = await this.#redis.eval(
      TAKE_SCRIPT,
      3,
      this.#keys.budgetWindow("minute"),
      this.#keys.budgetWindow("day"),
      this.#keys.budgetBlocked,
      perMinute,
      perDay,
      reserve,
      options.interactive ? 1 : 0,
      minuteMs,
      dayMs,
      options.holdNearWindowEnd ? boundaryMargin(minuteMs) : 0
    );
    const parsed = takeReply.parse(reply);
    if (parsed[0] === 1) {
      const [, minuteLeft, dayLeft, redisAt2, probe] = parsed;
      return { granted: true, minuteLeft, dayLeft, probeClaim: probe > 0 ? probe : null, redisAt: redisAt2 };
    }
    const [, reason, retryAtRedis, redisAt] = parsed;
    return {
      granted: false,
      reason,
      retryAt: toCallerClock(retryAtRedis, redisAt, this.#now()),
      retryInMs: retryAtRedis - redisAt,
      redisAt
    };
  }
  /** Stops every process from taking tokens for `ms` from now by Redis' clock (a longer block stays). */
  async blockFor(ms, reason) {
    return this.#block("for", Math.ceil(ms), reason);
  }
  /** Stops every process until Redis' time leaves the current `window` (a longer block stays). */
  async blockUntilWindowEnd(window, reason) {
    return this.#block("window", this.#length(window), reason);
  }
  /**
   * After a 429 without Retry-After for the day window or an unnamed one: refuses tokens until the first
   * probe (the earlier of `everyMs` and the end of our own `firstProbeBy` window), then grants one probe
   * token every `everyMs` until {@link endProbe}. `changed` is true for the call that began probing.
   */
  async probeAfterRateLimit(options) {
    const reply = await this.#redis.eval(
      PROBE_SCRIPT,
      1,
      this.#keys.budgetBlocked,
      options.everyMs,
      this.#length(options.firstProbeBy),
      options.reason,
      options.window,
      this.#options.dayMs
    );
    return blockResult(blockReply.parse(reply));
  }
  /** Ends probing when the probe that claimed `probeClaim` got an answer; true when the block was lifted. */
  async endProbe(probeClaim) {
    return await this.#redis.eval(END_PROBE_SCRIPT, 1, this.#keys.budgetBlocked, probeClaim) === 1;
  }
  /**
   * Carries a budget kept under a deployment's own prefix (before the ledger belonged to the credential)
   * into the ledger, then deletes it: today's count and a 429 block survive the upgrade, so it spends no
   * more than the upstream's cap allows. The keys are in two Cluster slots, so this is no script: it runs
   * once at start, before the daemon takes a token, and takes the larger count and the later block.
   */
  async adoptDeploymentBudget(deploymentRoot) {
    const old = ledgerKeys(deploymentRoot);
    const keys = this.#keys;
    for (const window of ["minute", "day"]) {
      const [was, is] = await Promise.all([
        this.#redis.hgetall(old.budgetWindow(window)),
        this.#redis.hgetall(keys.budgetWindow(window))
      ]);
      const [start, used] = [Number(was.start), Number(was.used)];
      if (!Number.isFinite(start) || !Number.isFinite(used)) continue;
      const [nowStart, nowUsed] = [Number(is.start ?? Number.NaN), Number(is.used ?? 0)];
      if (Number.isFinite(nowStart) && (nowStart > start || nowStart === start && nowUsed >= used))
        continue;
      const lengthMs = this.#length(window);
      await this.#redis.multi().hset(keys.budgetWindow(window), "start", start, "used", used).pexpireat(keys.budgetWindow(window), start + 2 * lengthMs).exec();
    }
    const [block, current] = await Promise.all([
      this.#redis.hgetall(old.budgetBlocked),
      this.#redis.hgetall(keys.budgetBlocked)
    ]);
    const until = Number(block.until);
    if (Number.isFinite(until) && !(Number(current.until) >= until)) {
      await this.#redis.multi().del(keys.budgetBlocked).hset(keys.budgetBlocked, block).pexpireat(keys.budgetBlocked, until + this.#length("day")).exec();
    }
    await this.#redis.del(
      old.budgetWindow("minute"),
      old.budgetWindow("day"),
      old.budgetBlocked,
      old.requestTally
    );
  }
  /** Counts of the current windows by Redis' clock, and the block, for `status`, `/readyz` and metrics. */
  async usage() {
    const { minuteMs, dayMs, perMinute, perDay, reserve } = this.#options;
    const reply = await this.#redis.eval(
      USAGE_SCRIPT,
      3,
      this.#keys.budgetWindow("minute"),
      this.#keys.budgetWindow("day"),
      this.#keys.budgetBlocked,
      minuteMs,
      dayMs
    );
    const [redisAt, minuteStart, minuteUsed, dayStart, dayUsed, until, reason, mode, window, every, since] = usageReply.parse(reply);
    const probing = mode === "probe" && every !== null ? { window, everyMs: every, since: since ?? redisAt } : null;
    const blocked = until !== null && until > redisAt;
    return {
      minute: windowUsage(minuteUsed, perMinute, minuteStart + minuteMs),
      day: windowUsage(dayUsed, perDay, dayStart + dayMs),
      reserve,
      blockedUntil: blocked ? until : null,
      blockedReason: (blocked || probing) && reason !== "" ? reason : null,
      probing,
      redisAt
    };
  }
  async #block(how, ms, reason) {
    const { dayMs } = this.#options;
    const reply = await this.#redis.eval(BLOCK_SCRIPT, 1, this.#keys.budgetBlocked, how, ms, reason, dayMs);
    return blockResult(blockReply.parse(reply));
  }
  #length(window) {
    return window === "minute" ? this.#options.minuteMs : this.#options.dayMs;
  }
  get #keys() {
    return ledgerKeys(this.#options.ledger);
  }
}
function blockResult([changed, until, redisAt, probing]) {
  return { changed: changed === 1, until, probing: probing === 1, redisAt };
}
function windowUsage(used, cap, resetAt) {
  return { used, cap, left: Math.max(0, cap - used), resetAt };
}
export {
  RateBudget
};
