import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';

/** Redis' own time in epoch ms: the one clock the budget's scripts read. */
export async function redisNow(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

/**
 * Waits until Redis' time is between `from` and `to` ms into a window of `lengthMs` (a fresh window when
 * it is past `to`), so that a test's takes land where it means them to; returns Redis' time then.
 */
export async function intoWindow(redis: Redis, lengthMs: number, from: number, to: number): Promise<number> {
  for (;;) {
    const now = await redisNow(redis);
    const offset = now % lengthMs;
    if (offset >= from && offset < to) return now;
    await sleep(offset < from ? from - offset : lengthMs - offset + from);
  }
}
