import {
  type AggregateEventsConfig,
  aggregateEventsSchema,
  registerSourceSchema,
} from '../../src/config/schema/sources.js';
import { aggregateAlerts } from '../../src/jobs/registers/aggregate-alerts.js';
import { diffRegister, type RegisterDiffInput } from '../../src/jobs/registers/register-diff.js';
import { diffPositions, type Snapshot } from '../../src/positions/index.js';
import { round4 } from '../../src/positions/round.js';
import { diffAggregates } from '../../src/sources/aggregate-diff.js';
import type { RegisterIssuer, RegisterSnapshot } from '../../src/sources/types.js';
import { positionsResponseSchema } from '../../src/upstream/schemas.js';

// What the daemon does with one read of a register file, beside what the API source does with the same
// positions: both diffed against the snapshots a first read left, with a busy next read.

const AGGREGATES: AggregateEventsConfig = aggregateEventsSchema.parse({});
const THRESHOLDS = [0.5, 1, 2, 5];
const FIRST_READ = new Date('2026-09-15T08:00:00.000Z');
const NEXT_READ = new Date('2026-09-16T08:00:00.000Z');
const NEXT_DAY = '2026-09-16';

/** What one read of a file leaves to diff the next against, as the daemon keeps it. */
export interface FirstRead {
  snapshot: RegisterSnapshot;
  /** Per issuer, the named positions stored by the first read's (silent) commit. */
  stored: Map<string, Snapshot>;
  source: RegisterDiffInput['source'];
}

/** The first read of `snapshot`: the snapshots its silent baseline stores. */
export function firstRead(snapshot: RegisterSnapshot): FirstRead {
  const source = registerSourceSchema.parse({ name: 'bench', kind: snapshot.kind, url: 'http://127.0.0.1/' });
  const baseline = diffRegister({
    source,
    snapshot,
    previous: new Map(),
    now: FIRST_READ,
    thresholds: THRESHOLDS,
    onFirstSeen: 'baseline',
    alsoCommit: new Set(),
  });
  return { snapshot, source, stored: new Map(baseline.issuers.map((i) => [i.key, i.diff.next])) };
}

/**
 * A busy next read: the first issuer gone, and in every other issuer the largest position raised by
 * 0.1 pp, the smallest of two or more gone, the aggregate 0.3 pp higher and the newest past value of a
 * history revised by 0.1 pp.
 */
export function busyNextRead(snapshot: RegisterSnapshot): RegisterSnapshot {
  return { ...snapshot, issuers: snapshot.issuers.slice(1).map(busyIssuer) };
}

function busyIssuer(issuer: RegisterIssuer): RegisterIssuer {
  const [largest, ...rest] = issuer.positions;
  const positions =
    largest === undefined
      ? []
      : [
          { ...largest, percent: round4(largest.percent + 0.1), date: NEXT_DAY },
          ...rest.slice(0, rest.length > 0 ? -1 : undefined),
        ];
  const next: RegisterIssuer = { ...issuer, positions };
  if (issuer.aggregate)
    next.aggregate = { ...issuer.aggregate, percent: round4(issuer.aggregate.percent + 0.3) };
  const history = issuer.aggregateHistory;
  const newest = history?.at(-1);
  if (history && newest)
    next.aggregateHistory = [...history.slice(0, -1), { ...newest, percent: round4(newest.percent + 0.1) }];
  return next;
}

/** The daemon's diff of one read: aggregate events (as alerts) and every issuer's named holders. */
export function daemonDiff(
  first: FirstRead,
  next: RegisterSnapshot,
): { aggregateMs: number; holderMs: number; events: number } {
  const t0 = performance.now();
  const alerts = aggregateAlerts(diffAggregates(first.snapshot, next, AGGREGATES), {
    source: first.source.name,
    from: FIRST_READ.toISOString(),
    detectedAt: NEXT_READ.toISOString(),
    listedOn: NEXT_DAY,
  });
  const t1 = performance.now();
  const diff = diffRegister({
    source: first.source,
    snapshot: next,
    previous: first.stored,
    now: NEXT_READ,
    thresholds: THRESHOLDS,
    onFirstSeen: 'baseline',
    listedBefore: new Set(first.snapshot.issuers.map((issuer) => issuer.key)),
    alsoCommit: new Set(alerts.map((alert) => alert.issuer.id)),
  });
  const t2 = performance.now();
  const named = diff.issuers.reduce((sum, issuer) => sum + issuer.diff.events.length, 0);
  return { aggregateMs: t1 - t0, holderMs: t2 - t1, events: alerts.length + named };
}

/**
 * The positions of `next` as the API serves them: one `GET /issuers/{id}/positions` body per issuer of
 * the first read or the next (an issuer gone from the file answers with no positions).
 */
export function apiBodies(first: FirstRead, next: RegisterSnapshot): string[] {
  const issuers = new Map<string, RegisterIssuer>(
    first.snapshot.issuers.map((issuer) => [issuer.key, { ...issuer, positions: [] }]),
  );
  for (const issuer of next.issuers) issuers.set(issuer.key, issuer);
  return [...issuers.values()].map((issuer) =>
    JSON.stringify({
      issuer: { svc_issuer_id: issuer.key, name: issuer.name },
      status: 'active',
      data: issuer.positions.map((p) => ({ date: p.date, value: p.percent, position_holder: p.holder })),
      last_updated: `${NEXT_DAY}T07:30:00Z`,
    }),
  );
}

/**
 * The API source's work for the same positions: per issuer its body parsed and checked by the
 * upstream schema, then the same diff against the same stored snapshot (no HTTP: one request each).
 */
export function apiWork(first: FirstRead, bodies: readonly string[]): { ms: number; events: number } {
  const t0 = performance.now();
  let events = 0;
  for (const body of bodies) {
    const response = positionsResponseSchema.parse(JSON.parse(body));
    const key = response.issuer.svc_issuer_id;
    events += diffPositions({
      previous: first.stored.get(key) ?? null,
      issuer: { id: key, name: response.issuer.name },
      rows: response.data,
      lastUpdated: response.last_updated,
      now: NEXT_READ,
      thresholds: THRESHOLDS,
      onFirstSeen: 'baseline',
    }).events.length;
  }
  return { ms: performance.now() - t0, events };
}
