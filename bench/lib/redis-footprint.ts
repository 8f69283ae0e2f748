import type { Redis } from 'ioredis';
import { keyRoot, stateKeys } from '../../src/state/keys.js';

/** The groups a deployment's keys are counted under. */
export type KeyGroup =
  | 'snapshots'
  | 'eventStreams'
  | 'eventSeen'
  | 'pollQueue'
  | 'deliveryQueues'
  | 'otherQueues'
  | 'otherState';

/** Bytes and key counts of one deployment's keys by group, from MEMORY USAGE with every element counted. */
export interface RedisFootprint {
  keys: number;
  total: number;
  bytes: Record<KeyGroup, number>;
  counts: Record<KeyGroup, number>;
  /** Entries of the event streams (issuer and global) and ids of the issuers' logged-id memories. */
  streamEntries: number;
  loggedIds: number;
  /** What one channel's outbox keeps once messages are done, for the ceilings of its retention. */
  kept: KeptFootprint;
}

/** One channel's retained delivery state: the dedupe memory, and the record of sent messages (all channels). */
export interface KeptFootprint {
  seenBytes: number;
  seenIds: number;
  recordBytes: number;
  recordRows: number;
  /** The bytes the record's byte bound counts for its rows (`retention.deliveryMemory`). */
  recordCounted: number;
  /** The largest row of the record, in bytes of its fields. */
  largestRecordBytes: number;
  /** The most events one sent message carried. */
  largestMessageEvents: number;
}

/** Memory of one key (every element counted), 0 when it does not exist. */
async function usage(redis: Redis, key: string): Promise<number> {
  const value = await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0');
  return typeof value === 'number' ? value : 0;
}

/** The retained delivery state of `channel` under `prefix`. */
async function keptFootprint(redis: Redis, prefix: string, channel: string): Promise<KeptFootprint> {
  const keys = stateKeys(keyRoot(prefix));
  const records = await redis.xrange(keys.record, '-', '+');
  let largestRecordBytes = 0;
  let largestMessageEvents = 0;
  for (const [, fields] of records) {
    largestRecordBytes = Math.max(largestRecordBytes, Buffer.byteLength(fields.join('')));
    const record: unknown = JSON.parse(fields[fields.indexOf('a') + 1] ?? '{}');
    const events = typeof record === 'object' && record !== null && 'events' in record ? record.events : 0;
    largestMessageEvents = Math.max(largestMessageEvents, typeof events === 'number' ? events : 0);
  }
  return {
    seenBytes: await usage(redis, keys.outbox(channel).seen),
    seenIds: await redis.zcard(keys.outbox(channel).seen),
    recordBytes: await usage(redis, keys.record),
    recordRows: records.length,
    recordCounted: Number((await redis.get(keys.recordBytes)) ?? 0),
    largestRecordBytes,
    largestMessageEvents,
  };
}

const zeroes = (): Record<KeyGroup, number> => ({
  snapshots: 0,
  eventStreams: 0,
  eventSeen: 0,
  pollQueue: 0,
  deliveryQueues: 0,
  otherQueues: 0,
  otherState: 0,
});

function groupOf(prefix: string, key: string): KeyGroup {
  const rest = key.slice(keyRoot(prefix).length + 1);
  if (rest.startsWith('snapshot:')) return 'snapshots';
  if (rest === 'events' || rest.startsWith('events:')) return 'eventStreams';
  if (rest.startsWith('events-logged:')) return 'eventSeen';
  if (rest.startsWith('q:poll:')) return 'pollQueue';
  if (rest.startsWith('outbox:')) return 'deliveryQueues';
  if (rest.startsWith('q:')) return 'otherQueues';
  return 'otherState';
}

/**
 * Scans `{<prefix>}:*` (never KEYS) and sums MEMORY USAGE (SAMPLES 0) per group; `channel`'s retained
 * delivery state apart.
 */
export async function redisFootprint(redis: Redis, prefix: string, channel: string): Promise<RedisFootprint> {
  const bytes = zeroes();
  const counts = zeroes();
  const streams: string[] = [];
  const logged: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${keyRoot(prefix)}:*`, 'COUNT', 1000);
    cursor = next;
    if (batch.length === 0) continue;
    const pipeline = redis.pipeline();
    for (const key of batch) pipeline.call('MEMORY', 'USAGE', key, 'SAMPLES', '0');
    const replies = (await pipeline.exec()) ?? [];
    batch.forEach((key, i) => {
      const value = replies[i]?.[1];
      if (typeof value !== 'number') return;
      const group = groupOf(prefix, key);
      bytes[group] += value;
      counts[group]++;
      if (group === 'eventStreams') streams.push(key);
      if (group === 'eventSeen') logged.push(key);
    });
  } while (cursor !== '0');
  const sizes = redis.pipeline();
  for (const key of streams) sizes.xlen(key);
  for (const key of logged) sizes.zcard(key);
  const lengths = ((await sizes.exec()) ?? []).map(([, n]) => (typeof n === 'number' ? n : 0));
  const total = (from: number, to: number) => lengths.slice(from, to).reduce((a, b) => a + b, 0);
  const sum = (r: Record<KeyGroup, number>) => Object.values(r).reduce((a, b) => a + b, 0);
  return {
    keys: sum(counts),
    total: sum(bytes),
    bytes,
    counts,
    streamEntries: total(0, streams.length),
    loggedIds: total(streams.length, lengths.length),
    kept: await keptFootprint(redis, prefix, channel),
  };
}
