import { EVENTS_KEPT_DEFAULT } from '../../src/config/schema/poll.js';
import { retentionSchema } from '../../src/config/schema/retention.js';
import { FAILED_POLL_JOBS_KEPT, POLL_JOBS_KEPT } from '../../src/jobs/sweep.js';
import {
  EVENTS_LOGGED_FACTOR,
  GLOBAL_EVENTS_FACTOR,
  PARKED_KEPT,
  RECORD_MEMORY_FACTOR,
  SEEN_KEPT,
} from '../../src/state/retention.js';
import type { RedisFootprint } from './redis-footprint.js';
import type { BenchTable } from './report.js';
import { fixed, slope } from './stats.js';

/** The daemon and Redis at the end of one sweep, once every delivery went out (the daemon idle). */
export interface Checkpoint {
  sweep: number;
  /** Upstream positions requests answered so far (polls and closed-event enrichment). */
  requests: number;
  rssMb: number;
  heapMb: number;
  cpuS: number;
  redis: RedisFootprint;
}

/** What an hour at 100 requests a minute allows: the compressed run's unit of time. */
export const REQUESTS_PER_HOUR = 6_000;
const MB = 1024 * 1024;

/** Retention of what grows, from the code: poll.eventsKept default, the global stream factor. */
const KEPT = {
  eventsPerIssuer: EVENTS_KEPT_DEFAULT,
  globalEvents: EVENTS_KEPT_DEFAULT * GLOBAL_EVENTS_FACTOR,
};
/** The watchlist the ceilings are stated for (issues 20 and 29: none over 100 MB at 1,000 issuers). */
const CEILING_ISSUERS = 1_000;
/** The record's byte bound by default (`retention.deliveryMemory`, MiB). */
const RECORD_MIB = retentionSchema.parse({}).deliveryMemory;
/** What a failed poll job is assumed to carry besides its data: three attempts' stack traces (not measured here). */
const FAILED_JOB_TRACES = 6 * 1024;

/** Per sweep: requests, memory, CPU and Redis. */
export function sweepTable(checkpoints: readonly Checkpoint[]): BenchTable {
  return {
    title: "The daemon and this deployment's Redis keys at the end of each sweep (daemon idle)",
    columns: ['sweep', 'requests', 'RSS MB', 'heap MB', 'daemon CPU s', 'Redis MB', 'Redis keys'],
    rows: checkpoints.map((c) => [
      c.sweep,
      c.requests,
      fixed(c.rssMb, 1),
      fixed(c.heapMb, 1),
      fixed(c.cpuS, 1),
      fixed(c.redis.total / MB, 2),
      c.redis.keys,
    ]),
  };
}

/** Least-squares growth per hour-equivalent over the idle checkpoints after the first sweep. */
export function growthTable(checkpoints: readonly Checkpoint[]): BenchTable {
  const later = checkpoints.filter((c) => c.sweep >= 1);
  const points = later.length >= 2 ? later : checkpoints;
  const from = points[0];
  const to = points.at(-1);
  const row = (name: string, value: (c: Checkpoint) => number, digits: number) => [
    name,
    fixed(from ? value(from) : Number.NaN, digits),
    fixed(to ? value(to) : Number.NaN, digits),
    fixed(slope(points.map((c) => ({ x: c.requests, y: value(c) }))) * REQUESTS_PER_HOUR, 2),
  ];
  return {
    title: `Growth from sweep ${from?.sweep ?? '-'} to sweep ${to?.sweep ?? '-'} (least-squares slope, MB per ${REQUESTS_PER_HOUR} requests = an hour at 100/min)`,
    columns: ['figure', 'first MB', 'last MB', 'MB per hour-equivalent'],
    rows: [
      row('daemon RSS', (c) => c.rssMb, 1),
      row('daemon heap used (after GC)', (c) => c.heapMb, 1),
      row('Redis (this deployment)', (c) => c.redis.total / MB, 2),
    ],
  };
}

/** Redis KiB per watched issuer, by group. */
export function perIssuerTable(rows: readonly [string, RedisFootprint][], issuers: number): BenchTable {
  const kb = (bytes: number) => fixed(bytes / 1024 / issuers, 2);
  return {
    title: 'Redis KiB per watched issuer, by what the keys hold',
    columns: ['when', 'snapshot', 'event streams', 'logged ids', 'poll queue', 'outboxes', 'other', 'total'],
    rows: rows.map(([label, r]) => [
      label,
      kb(r.bytes.snapshots),
      kb(r.bytes.eventStreams),
      kb(r.bytes.eventSeen),
      kb(r.bytes.pollQueue),
      kb(r.bytes.deliveryQueues),
      kb(r.bytes.otherQueues + r.bytes.otherState),
      kb(r.total),
    ]),
  };
}

/** What each retained thing costs, as measured at the end of the run (its ceilings: {@link ceilingTable}). */
export function unitTable(r: RedisFootprint): BenchTable {
  const each = (bytes: number, count: number) => (count > 0 ? fixed(bytes / count, 0) : '-');
  return {
    title: 'Bytes per retained item (from the last sweep)',
    columns: ['item', 'count', 'bytes each'],
    rows: [
      ['snapshot', r.counts.snapshots, each(r.bytes.snapshots, r.counts.snapshots)],
      ['event stream entry (issuer or global)', r.streamEntries, each(r.bytes.eventStreams, r.streamEntries)],
      ["logged event id (an issuer's memory)", r.loggedIds, each(r.bytes.eventSeen, r.loggedIds)],
      ['poll queue key (a finished job)', r.counts.pollQueue, each(r.bytes.pollQueue, r.counts.pollQueue)],
      ['dedupe memory id (a channel)', r.kept.seenIds, each(r.kept.seenBytes, r.kept.seenIds)],
      ['record row (Redis memory)', r.kept.recordRows, each(r.kept.recordBytes, r.kept.recordRows)],
      [
        'record row (as its byte bound counts)',
        r.kept.recordRows,
        each(r.kept.recordCounted, r.kept.recordRows),
      ],
    ],
  };
}

/**
 * The ceiling of everything Redis keeps past its use, at {@link CEILING_ISSUERS} issuers: each bound as
 * configured by default times the bytes of one item as measured (or, for the record, its byte bound times
 * the most Redis' memory runs over what the bound counts).
 */
export function ceilingTable(r: RedisFootprint): BenchTable {
  const { kept } = r;
  const per = (bytes: number, count: number) => (count > 0 ? bytes / count : Number.NaN);
  const perEntry = per(r.bytes.eventStreams, r.streamEntries);
  const perLogged = per(r.bytes.eventSeen, r.loggedIds);
  const perPoll = per(r.bytes.pollQueue, r.counts.pollQueue);
  const perSeenId = per(kept.seenBytes, kept.seenIds);
  const recordFactor = per(kept.recordBytes, kept.recordCounted);
  // A parked message is one coalesced message: its events' JSON, plus the message around them.
  const largestMessage = kept.largestMessageEvents * perEntry + 2_048;
  const entries = CEILING_ISSUERS * KEPT.eventsPerIssuer + KEPT.globalEvents;
  const loggedIds = CEILING_ISSUERS * KEPT.eventsPerIssuer * EVENTS_LOGGED_FACTOR;
  const rows: Array<[string, string, string, number]> = [
    [
      'event streams (issuer + global)',
      fixed(perEntry, 0),
      `${KEPT.eventsPerIssuer} entries an issuer (poll.eventsKept) + ${KEPT.globalEvents} global, exact trims`,
      entries * perEntry,
    ],
    [
      'logged event ids (replay memory)',
      fixed(perLogged, 0),
      `${KEPT.eventsPerIssuer * EVENTS_LOGGED_FACTOR} ids an issuer (${EVENTS_LOGGED_FACTOR} x poll.eventsKept), 30 days`,
      loggedIds * perLogged,
    ],
    ['finished poll jobs', fixed(perPoll, 0), `${POLL_JOBS_KEPT} completed, 24 h`, POLL_JOBS_KEPT * perPoll],
    [
      'failed poll jobs',
      fixed(perPoll + FAILED_JOB_TRACES, 0),
      `${FAILED_POLL_JOBS_KEPT} failed, 7 days (each + 3 stack traces, 6 KB assumed)`,
      FAILED_POLL_JOBS_KEPT * (perPoll + FAILED_JOB_TRACES),
    ],
    [
      "dedupe memory, a channel (a subscriber's too)",
      fixed(perSeenId, 0),
      `${SEEN_KEPT} ids, 30 days`,
      SEEN_KEPT * perSeenId,
    ],
    [
      'record of sent messages (all channels)',
      fixed(per(kept.recordBytes, kept.recordRows), 0),
      `${RECORD_MIB} MiB of rows (retention.deliveryMemory) x ${RECORD_MEMORY_FACTOR} (Redis over the count at most; here ${fixed(recordFactor, 2)})`,
      RECORD_MIB * MB * RECORD_MEMORY_FACTOR,
    ],
    [
      "dead letter, a channel (a subscriber's too)",
      fixed(largestMessage, 0),
      `${PARKED_KEPT} messages (largest seen: ${kept.largestMessageEvents} events)`,
      PARKED_KEPT * largestMessage,
    ],
  ];
  return {
    title: `Ceiling of each retention at ${CEILING_ISSUERS} issuers (its bound x the bytes of an item as measured)`,
    columns: ['what', 'bytes each', 'kept at most', 'ceiling MB', 'under 100 MB'],
    rows: rows.map(([what, each, cap, bytes]) => [
      what,
      each,
      cap,
      fixed(bytes / MB, 1),
      bytes / MB < 100 ? 'yes' : 'NO',
    ]),
  };
}
