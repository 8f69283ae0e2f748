import { stateKeys } from './keys.js';
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
// window (as the budget's own windows are): no key named by date, no host clock.
// KEYS: the tally hash. ARGV: day window ms, purpose.
const COUNT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local start = now - (now % tonumber(ARGV[1]))
if tonumber(redis.call('HGET', KEYS[1], 'window') or '-1') ~= start then
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], 'window', start)
end
redis.call('HINCRBY', KEYS[1], ARGV[2], 1)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]) * 2)
return 1
`;

/**
 * Upstream calls of the current budget day window, by purpose, shared by every process. A call is one
 * operation (its retries are attempts the budget counts, not new calls), so the budget's day count minus
 * this tally is what retries spent.
 */
export class RequestTally {
  readonly #redis: RedisClient;
  readonly #key: string;

  constructor(redis: RedisClient, root: string) {
    this.#redis = redis;
    this.#key = stateKeys(root).requestTally;
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
