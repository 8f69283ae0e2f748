import { z } from 'zod';
import { stateKeys } from './keys.js';
import type { RedisClient } from './redis-connection.js';

/**
 * The deployment's high-water mark: a counter in Redis (`<t>:state-mark`) that every poll commit raises,
 * and every deliverer before each send, with Redis' time of the last raise. Each process keeps the highest
 * value it has seen. Replication is asynchronous: a failover that promotes a replica which lacked the
 * master's last writes takes the mark back with them, and the next reading is lower than one already seen.
 * That is how a process knows Redis lost writes (`state-rolled-back`), since the epoch survives on the
 * replica and a lost write leaves no other trace.
 */

/** Lua: raise the mark by one at Redis' time. `key` the mark, `now` epoch ms (TIME). */
export const RAISE_MARK_LUA = `
local function raise_mark(key, now)
  redis.call('HINCRBY', key, 'seq', 1)
  redis.call('HSET', key, 'at', now)
end
`;

/** KEYS[1] the mark, KEYS[2] the epoch. Raises the mark; returns {seq, at, epoch}. */
const RAISE_SCRIPT = `${RAISE_MARK_LUA}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
raise_mark(KEYS[1], now)
return {tonumber(redis.call('HGET', KEYS[1], 'seq')), now, redis.call('GET', KEYS[2]) or ''}
`;

/** KEYS[1] the mark, KEYS[2] the epoch. Returns {seq, at, epoch} (0 for a mark never raised). */
const READ_SCRIPT = `
local m = redis.call('HMGET', KEYS[1], 'seq', 'at')
return {tonumber(m[1] or '0'), tonumber(m[2] or '0'), redis.call('GET', KEYS[2]) or ''}
`;

const readingSchema = z
  .tuple([z.number().int().nonnegative(), z.number().int().nonnegative(), z.string()])
  .transform(([seq, at, epoch]) => ({ seq, at, epoch }));

/** The mark as one reply read it: its value, Redis' time of its last raise, the epoch beside it ('' none). */
export type MarkReading = z.output<typeof readingSchema>;

/** Redis holds a lower mark than this process saw: writes were lost (a failover to a stale replica). */
export interface Rollback {
  /** The highest mark seen before, and Redis' time (epoch ms) of that raise. */
  seen: { seq: number; at: number };
  /** The mark Redis holds now, and the time of its last raise. */
  found: { seq: number; at: number };
}

/** How far the state went back, for the notice and the log: raises lost and the time between the two. */
export function describeRollback(rollback: Rollback): string {
  const { seen, found } = rollback;
  const lost = seen.seq - found.seq;
  const seconds = Math.max(0, (seen.at - found.at) / 1_000);
  return `${lost} write${lost === 1 ? '' : 's'} of the high-water mark (${seen.seq} seen, ${found.seq} now), the last ${seconds.toFixed(1)} s before ${new Date(seen.at).toISOString()} (Redis' time)`;
}

/**
 * One reading against the highest seen on the same stream (a connection answers in order, so a reply
 * never overtakes a later one on it): the next highest, and a rollback when the reading is lower. Another
 * epoch (the state lost whole, `state-lost`'s story) or none starts again without a rollback.
 */
export function judgeReading(
  high: MarkReading | undefined,
  reading: MarkReading,
): { high: MarkReading; rollback?: Rollback } {
  if (!high || reading.epoch === '' || high.epoch !== reading.epoch) return { high: reading };
  if (reading.seq >= high.seq) return { high: reading };
  return {
    high: reading,
    rollback: { seen: { seq: high.seq, at: high.at }, found: { seq: reading.seq, at: reading.at } },
  };
}

/**
 * This process's view of the mark: the highest value seen per connection (keyed by the client object),
 * since two connections' replies may arrive in another order than Redis ran them.
 */
export class StateMark {
  readonly #redis: RedisClient;
  readonly #keys: [string, string];
  readonly #highs = new WeakMap<object, MarkReading>();

  constructor(redis: RedisClient, root: string) {
    this.#redis = redis;
    const keys = stateKeys(root);
    this.#keys = [keys.stateMark, keys.epoch];
  }

  /** Raises the mark on `client` (a write that follows all of that connection's earlier ones); a rollback found. */
  async raise(client: RedisClient): Promise<Rollback | undefined> {
    return this.#observe(client, await client.eval(RAISE_SCRIPT, 2, ...this.#keys));
  }

  /** Reads the mark on this store's connection; a rollback found. */
  async check(): Promise<Rollback | undefined> {
    return this.#observe(this.#redis, await this.#redis.eval(READ_SCRIPT, 2, ...this.#keys));
  }

  #observe(stream: object, reply: unknown): Rollback | undefined {
    const judged = judgeReading(this.#highs.get(stream), readingSchema.parse(reply));
    this.#highs.set(stream, judged.high);
    return judged.rollback;
  }
}
