import { ledgerKeys } from './keys.js';
import type { RedisClient } from './redis-connection.js';

/** Why an upstream call was made, as the console's overview charts today's calls. */
export type RequestPurpose = 'issuer-list' | 'poll' | 'history' | 'probe' | 'interactive';

/** Every purpose, in the order the chart lists them. */
export const REQUEST_PURPOSES: readonly RequestPurpose[] = [
  'issuer-list',
  'poll',
  'history',
  'probe',
  'interactive',
];

// One hash for the current day window, reset inside the script when Redis' time has moved into a new
// window (as the budget's own windows are): no key named by date, no host clock. Like the budget's
// windows it expires a window after its end: no deployment owns the ledger to delete it.
// KEYS: the tally hash (a ledger key only). ARGV: day window ms, purpose.
const COUNT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local start = now - (now % tonumber(ARGV[1]))
if tonumber(redis.call('HGET', KEYS[1], 'window') or '-1') ~= start then
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], 'window', start)
end
redis.call('HINCRBY', KEYS[1], ARGV[2], 1)
redis.call('PEXPIRE', KEYS[1], start + 2 * tonumber(ARGV[1]) - now)
return 1
`;

/**
 * Upstream calls of the current budget day window, by purpose, in the credential's ledger beside the
 * budget's windows (every process and deployment with that credential counts here; read it through
 * `RateBudget`). A call is one operation (its retries are attempts the budget counts, not new calls), so
 * the budget's day count minus this tally is what retries spent.
 */
export class RequestTally {
  readonly #redis: RedisClient;
  readonly #key: string;

  /** `ledger` is the tagged root of the credential's ledger (state/keys.ts `ledgerRoot`). */
  constructor(redis: RedisClient, ledger: string) {
    this.#redis = redis;
    this.#key = ledgerKeys(ledger).requestTally;
  }

  /** Counts one call in the day window that holds Redis' time now. */
  async count(purpose: RequestPurpose, dayMs: number): Promise<void> {
    await this.#redis.eval(COUNT_SCRIPT, 1, this.#key, dayMs, purpose);
  }

  /** The counts of the window starting at `windowStart` (Redis' clock); zeros when none was counted in it. */
  async read(windowStart: number): Promise<Record<RequestPurpose, number>> {
    const raw = await this.#redis.hgetall(this.#key);
    const same = Number(raw.window) === windowStart;
    const n = (purpose: RequestPurpose) => (same ? Number(raw[purpose] ?? 0) || 0 : 0);
    return {
      'issuer-list': n('issuer-list'),
      poll: n('poll'),
      history: n('history'),
      probe: n('probe'),
      interactive: n('interactive'),
    };
  }
}
