import { shortHash } from '../state/delivery-ids.js';

/**
 * Queue names and job ids, in one place. BullMQ rejects custom ids with ':' (unless exactly three
 * parts) and all-digit ids, so every id here is built from '-' separated parts that start with a letter.
 */
export const QUEUE = {
  sweep: 'sweep',
  poll: 'poll',
  digest: 'digest',
  /** Whole-register reads (src/jobs/registers/): one job per source every `interval`. */
  register: 'register',
} as const;

/** Scheduler ids: one per purpose, so upserting from many processes leaves one scheduler each. */
export const SCHEDULER = {
  sweep: 'sweep',
  digest: (channel: string) => `digest-${channel}`,
  heartbeat: 'heartbeat',
  register: (source: string) => `register-${source}`,
} as const;

/** A poll of one issuer for one dataset version: repeated sweeps before it runs add nothing. */
export function pollJobId(issuerId: string, version: string): string {
  return `poll-${shortHash(issuerId)}-${version}`;
}

/** Finished scheduler jobs kept for `status`; nothing depends on their retention for correctness. */
export const KEEP_COMPLETED = { age: 24 * 3600, count: 1_000 } as const;
/** Failed jobs kept for inspection. */
export const KEEP_FAILED = { age: 7 * 24 * 3600, count: 10_000 } as const;

/**
 * A digest seal that failed (Redis unreachable or erroring) is tried again within minutes, not at the next
 * period: 1 s doubling, 8 attempts (about 4 minutes). Sealing is idempotent per period, so a retry whose
 * first try landed changes nothing.
 */
export const DIGEST_RETRIES = { attempts: 8, backoff: { type: 'exponential', delay: 1_000 } } as const;
