import { EVENTS_KEPT_DEFAULT } from '../../src/config/schema/poll.js';
import { retentionSchema } from '../../src/config/schema/retention.js';
import {
  DELIVERY_IDS_LOGGED,
  GLOBAL_EVENTS_FACTOR,
  PARKED_KEPT,
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

/** Retention of what grows, from the code: poll.eventsKept default, the global stream factor, BullMQ keep options. */
const KEPT = {
  eventsPerIssuer: EVENTS_KEPT_DEFAULT,
  globalEvents: EVENTS_KEPT_DEFAULT * GLOBAL_EVENTS_FACTOR,
  pollJobs: 10_000,
};
/** The watchlist the ceilings are stated for (issue 20: none over 100 MB at 1,000 issuers). */
const CEILING_ISSUERS = 1_000;
/** Bytes of one event id in a JSON list (33 characters, quotes, comma). */
const ID_BYTES = 36;
/** Fields of a row of the record besides its event ids (a typical e-mail row: docs/operations.md). */
const RECORD_BYTES = 420;
/** Rows the record of sent messages keeps at most, by default (`retention.deliveryRows`). */
const RECORD_ROWS = retentionSchema.parse({}).deliveryRows;

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
    columns: [
      'when',
      'snapshot',
      'event streams',
      'event-seen',
      'poll queue',
      'delivery queues',
      'other',
      'total',
    ],
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

/** What each retained thing costs and where its retention caps Redis (for this watchlist size). */
export function unitTable(r: RedisFootprint, issuers: number): BenchTable {
  const each = (bytes: number, count: number) => (count > 0 ? bytes / count : Number.NaN);
  const events = r.counts.eventSeen;
  const perEvent = each(r.bytes.eventStreams, events);
  const perSeen = each(r.bytes.eventSeen, events);
  const perPoll = each(r.bytes.pollQueue, r.counts.pollQueue);
  const mb = (bytes: number) => fixed(bytes / MB, 1);
  return {
    title: 'Bytes per retained item (from the last sweep) and the ceiling its retention sets',
    columns: ['item', 'count', 'bytes each', 'kept at most', 'ceiling MB'],
    rows: [
      [
        'snapshot',
        r.counts.snapshots,
        fixed(each(r.bytes.snapshots, r.counts.snapshots), 0),
        'one per issuer',
        mb(r.bytes.snapshots),
      ],
      [
        'event (issuer + global stream entries)',
        events,
        fixed(perEvent, 0),
        `${KEPT.eventsPerIssuer} per issuer + ${KEPT.globalEvents}`,
        mb(((issuers * KEPT.eventsPerIssuer + KEPT.globalEvents) * perEvent) / 2),
      ],
      ['event-seen marker', events, fixed(perSeen, 0), '30 days of events', '-'],
      [
        'poll queue key',
        r.counts.pollQueue,
        fixed(perPoll, 0),
        `${KEPT.pollJobs} finished jobs, 24 h`,
        mb(KEPT.pollJobs * perPoll),
      ],
    ],
  };
}

/**
 * The ceiling of every count-bounded thing Redis keeps, at {@link CEILING_ISSUERS} issuers: its count cap
 * times its largest item (the largest the code lets exist where it bounds it, else the largest seen).
 */
export function ceilingTable(r: RedisFootprint): BenchTable {
  const { kept } = r;
  const perEvent = r.counts.eventSeen > 0 ? r.bytes.eventStreams / r.counts.eventSeen / 2 : Number.NaN;
  const perPoll = r.counts.pollQueue > 0 ? r.bytes.pollQueue / r.counts.pollQueue : Number.NaN;
  const perSeenId = kept.seenIds > 0 ? kept.seenBytes / kept.seenIds : Number.NaN;
  const perRow = kept.recordRows > 0 ? kept.recordBytes / kept.recordRows : RECORD_BYTES;
  // The largest row the code lets exist: the most ids a row lists, beside a typical row's fields.
  const largestRecord = Math.max(
    kept.largestRecordBytes,
    perRow,
    DELIVERY_IDS_LOGGED * ID_BYTES + RECORD_BYTES,
  );
  // A parked message is one coalesced message: its events' JSON, plus the message around them.
  const largestMessage = kept.largestMessageEvents * perEvent + 2_048;
  const rows: Array<[string, number, string, number]> = [
    [
      'events (issuer + global streams)',
      perEvent,
      `${KEPT.eventsPerIssuer} per issuer + ${KEPT.globalEvents}`,
      (CEILING_ISSUERS * KEPT.eventsPerIssuer + KEPT.globalEvents) * perEvent,
    ],
    ['finished poll jobs', perPoll, `${KEPT.pollJobs} jobs, 24 h`, KEPT.pollJobs * perPoll],
    ['dedupe memory, a channel', perSeenId, `${SEEN_KEPT} ids, 30 days`, SEEN_KEPT * perSeenId],
    [
      'record of sent messages (all channels)',
      largestRecord,
      `${RECORD_ROWS} rows (retention.deliveryRows) of at most ${DELIVERY_IDS_LOGGED} event ids`,
      RECORD_ROWS * largestRecord,
    ],
    [
      'dead letter, a channel',
      largestMessage,
      `${PARKED_KEPT} messages (largest seen: ${kept.largestMessageEvents} events)`,
      PARKED_KEPT * largestMessage,
    ],
  ];
  return {
    title: `Ceiling of each count-bounded retention at ${CEILING_ISSUERS} issuers (count cap x largest item)`,
    columns: ['what', 'largest item bytes', 'kept at most', 'ceiling MB', 'under 100 MB'],
    rows: rows.map(([what, each, cap, bytes]) => [
      what,
      fixed(each, 0),
      cap,
      fixed(bytes / MB, 1),
      bytes / MB <= 100 ? 'yes' : 'NO',
    ]),
  };
}
