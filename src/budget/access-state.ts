import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Secret } from '../config/secret.js';

/** Whether the upstream accepts our key: `ok`, or revoked after a 401 (`unauthorized`) or 403 (`no-api-access`). */
export type AccessStatus =
  | { state: 'ok' }
  | {
      state: RevokedState;
      since: number;
      message: string;
      /** {@link accessFingerprint} of the config that was refused. */
      fingerprint: string;
      lastProbeAt: number | null;
    };

/** The two ways access is lost. */
export type RevokedState = 'unauthorized' | 'no-api-access';

const epochMs = z.string().regex(/^\d+$/).transform(Number);
const revokedRecord = z.object({
  state: z.enum(['unauthorized', 'no-api-access']),
  since: epochMs,
  message: z.string(),
  fingerprint: z.string(),
  lastProbeAt: epochMs.optional(),
});

// Creates the record only when none exists, so of many processes that see a 401 at once exactly one
// wins and raises the operator notice.
const REVOKE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'since', ARGV[2], 'message', ARGV[3], 'fingerprint', ARGV[4])
return 1
`;

const RECONCILE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HGET', KEYS[1], 'fingerprint') == ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
`;

// The claim holds the time of the last probe, compared with the caller's clock; the key also expires by
// itself after the interval.
const CLAIM_PROBE_SCRIPT = `
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local last = tonumber(redis.call('GET', KEYS[1]) or '')
if last and now - last < interval then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', interval)
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('HSET', KEYS[2], 'lastProbeAt', ARGV[1]) end
return 1
`;

/**
 * Upstream access shared by every process: a 401 or 403 stops polling everywhere (retrying only
 * burns budget) until a probe succeeds or the configured key or base URL changes.
 */
export class AccessState {
  readonly #redis: Redis;
  readonly #key: string;
  readonly #probeKey: string;
  readonly #now: () => number;

  constructor(redis: Redis, prefix: string, now: () => number = Date.now) {
    this.#redis = redis;
    this.#key = `${prefix}:access`;
    this.#probeKey = `${prefix}:access:probe`;
    this.#now = now;
  }

  /** The current status; an unreadable record counts as revoked, so a damaged key never unleashes polling. */
  async get(): Promise<AccessStatus> {
    const raw = await this.#redis.hgetall(this.#key);
    if (Object.keys(raw).length === 0) return { state: 'ok' };
    const parsed = revokedRecord.safeParse(raw);
    if (!parsed.success) {
      return {
        state: 'unauthorized',
        since: this.#now(),
        message: `the access record ${this.#key} in Redis is unreadable; it is cleared when the config is reconciled`,
        fingerprint: '',
        lastProbeAt: null,
      };
    }
    return { ...parsed.data, lastProbeAt: parsed.data.lastProbeAt ?? null };
  }

  /** Marks access lost; true only for the one call that changed it from ok, so one notice is raised. */
  async revoke(state: RevokedState, message: string, fingerprint: string): Promise<boolean> {
    const changed = await this.#redis.eval(
      REVOKE_SCRIPT,
      1,
      this.#key,
      state,
      this.#now(),
      message,
      fingerprint,
    );
    return changed === 1;
  }

  /** Marks access ok again; true if it was revoked. */
  async restore(): Promise<boolean> {
    return (await this.#redis.del(this.#key)) > 0;
  }

  /** Restores access when the config's fingerprint differs from the refused one (a new key or URL); true if restored. */
  async reconcile(fingerprint: string): Promise<boolean> {
    return (await this.#redis.eval(RECONCILE_SCRIPT, 1, this.#key, fingerprint)) === 1;
  }

  /** Claims the right to send the access probe; at most one claim per `intervalMs` across all processes. */
  async claimProbe(intervalMs = 3_600_000): Promise<boolean> {
    const now = this.#now();
    const claimed = await this.#redis.eval(CLAIM_PROBE_SCRIPT, 2, this.#probeKey, this.#key, now, intervalMs);
    return claimed === 1;
  }
}

/** A short sha256 of the base URL and key: tells configs apart without ever storing the key. */
export function accessFingerprint(baseUrl: string, apiKey: string | Secret): string {
  const key = typeof apiKey === 'string' ? apiKey : apiKey.reveal();
  return createHash('sha256').update(`${baseUrl}\n${key}`).digest('hex').slice(0, 16);
}
