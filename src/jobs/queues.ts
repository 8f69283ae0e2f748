import { createHash } from 'node:crypto';

/**
 * Queue names and job ids, in one place. BullMQ rejects custom ids with ':' (unless exactly three
 * parts) and all-digit ids, so every id here is built from '-' separated parts that start with a letter.
 */
export const QUEUE = {
  sweep: 'sweep',
  poll: 'poll',
  digest: 'digest',
  ops: 'ops',
} as const;

/** The delivery queue of one channel: one queue per channel so each has its own rate limit and backlog. */
export function deliverQueueName(channel: string): string {
  return `deliver-${channel}`;
}

/** A short stable hash usable inside job ids and Redis keys, whatever the input's characters. */
export function shortHash(text: string, length = 16): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

/** Scheduler ids: one per purpose, so upserting from many processes leaves one scheduler each. */
export const SCHEDULER = {
  sweep: 'sweep',
  digest: (channel: string) => `digest-${channel}`,
  heartbeat: 'heartbeat',
} as const;

/** A poll of one issuer for one dataset version: repeated sweeps before it runs add nothing. */
export function pollJobId(issuerId: string, version: string): string {
  return `poll-${shortHash(issuerId)}-${version}`;
}

/** A delivery of one group of events to one channel: replays of the same poll map to the same id. */
export function deliveryJobId(channel: string, eventIds: readonly string[]): string {
  return `d-${shortHash(channel, 8)}-${shortHash([...eventIds].sort().join(','), 24)}`;
}

/** A notice delivery: one per problem occurrence. */
export function noticeJobId(channel: string, key: string, occurrence: string): string {
  return `n-${shortHash(channel, 8)}-${shortHash(`${key}|${occurrence}`, 24)}`;
}

/** One digest run of one channel, by the end of the period it covers. */
export function digestBatchId(channel: string, periodEnd: number): string {
  return `dg-${shortHash(channel, 8)}-t${periodEnd}`;
}

/** How long finished jobs are kept: long enough that a replayed poll's ids still deduplicate. */
export const KEEP_COMPLETED = { age: 7 * 24 * 3600, count: 100_000 } as const;
/** Failed jobs are the dead letter: kept until retried or removed by an operator. */
export const KEEP_FAILED = { age: 90 * 24 * 3600, count: 100_000 } as const;
