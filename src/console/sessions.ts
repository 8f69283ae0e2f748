import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { stateKeys } from '../state/keys.js';
import type { RedisClient } from '../state/redis-connection.js';

/** The shape of a session id this console issues: 32 random bytes, base64url. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

// One step, so that parallel guesses cannot all pass before the counter is read: count, start the window
// on the first attempt, and answer the count with the window's time left.
const COUNT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`;

const countReply = z.tuple([z.number(), z.number()]);

/** Whether a sign-in attempt may go ahead, and when the address may try again if not. */
export interface SignInAllowance {
  allowed: boolean;
  retryInMs: number;
}

function keyOf(id: string): string {
  // Redis holds a hash of the id: whoever reads Redis cannot sign in with what they read.
  return createHash('sha256').update(id).digest('hex');
}

/**
 * Console sign-ins in Redis: a random id per sign-in, stored (hashed) with the fingerprint of the token it
 * was made with and an expiry. Signing out deletes it; a changed token no longer matches, and the stale
 * record is deleted when it is next presented.
 */
export class ConsoleSessions {
  readonly #redis: RedisClient;
  readonly #keys: ReturnType<typeof stateKeys>;

  constructor(redis: RedisClient, prefix: string) {
    this.#redis = redis;
    this.#keys = stateKeys(prefix);
  }

  /** Starts a session for a token fingerprint; answers its id (the cookie's value). */
  async create(fingerprint: string, ttlMs: number): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    await this.#redis.set(this.#keys.consoleSession(keyOf(id)), fingerprint, 'PX', ttlMs);
    return id;
  }

  /** Whether `id` is a live session made with the token whose fingerprint is given. */
  async valid(id: string | undefined, fingerprint: string): Promise<boolean> {
    if (id === undefined || !SESSION_ID.test(id)) return false;
    const key = this.#keys.consoleSession(keyOf(id));
    const stored = await this.#redis.get(key);
    if (stored === fingerprint) return true;
    if (stored !== null) await this.#redis.del(key);
    return false;
  }

  /** Ends a session (sign-out); nothing happens for an id that is not one. */
  async revoke(id: string | undefined): Promise<void> {
    if (id !== undefined && SESSION_ID.test(id)) await this.#redis.del(this.#keys.consoleSession(keyOf(id)));
  }

  /** Whether `address` has attempts left in its window, without counting one (a right Bearer token). */
  async signInsLeft(address: string, limit: number): Promise<SignInAllowance> {
    const key = this.#keys.consoleSignIns(address);
    const [count, ttl] = await Promise.all([this.#redis.get(key), this.#redis.pttl(key)]);
    return { allowed: Number(count ?? 0) < limit, retryInMs: Math.max(0, ttl) };
  }

  /** Counts one sign-in attempt from `address`: allowed while at most `limit` were made in the window. */
  async countSignIn(address: string, limit: number, windowMs: number): Promise<SignInAllowance> {
    const key = this.#keys.consoleSignIns(address);
    const [count, ttl] = countReply.parse(await this.#redis.eval(COUNT_SCRIPT, 1, key, windowMs));
    return { allowed: count <= limit, retryInMs: Math.max(0, ttl) };
  }
}
