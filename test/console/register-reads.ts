import { aggregateAlerts } from '../../src/jobs/registers/aggregate-alerts.js';
import { holderKey } from '../../src/positions/holder-key.js';
import type { PositionEvent } from '../../src/positions/types.js';
import { diffAggregates } from '../../src/sources/aggregate-diff.js';
import type { RegisterIssuer, RegisterSnapshot } from '../../src/sources/types.js';

// Register reads built by hand, and the events the daemon's own pure steps (the aggregate diff, then
// the alerts) raise between two of them: the console's tests read events of the real shape.

/** A named position as a register lists it. */
export function named(holder: string, percent: number, date: string): RegisterIssuer['positions'][number] {
  return { holder, holderKey: holderKey(holder), percent, date };
}

/** A register issuer with an aggregate from `threshold` (when `percent` is given) and named positions. */
export function issuer(
  key: string,
  name: string,
  aggregate?: { percent: number; date: string; threshold: number },
  positions: RegisterIssuer['positions'] = [],
): RegisterIssuer {
  return {
    key,
    name,
    positions,
    ...(aggregate
      ? {
          aggregate: {
            percent: aggregate.percent,
            date: aggregate.date,
            thresholdPercent: aggregate.threshold,
          },
        }
      : {}),
  };
}

/** One read of a register that names holders (or not) and sums from `threshold`. */
export function read(
  issuers: RegisterIssuer[],
  options: { namesHolders: boolean; threshold: number },
): RegisterSnapshot {
  return {
    kind: options.namesHolders ? 'no-ssr-json' : 'uk-ansp-current',
    content: 'positions',
    issuers,
    rows: issuers.length,
    namesHolders: options.namesHolders,
    aggregateThreshold: options.threshold,
  };
}

/** The aggregate events the daemon raises from `before` to `after`, seen at `at` from source `source`. */
export function eventsBetween(
  before: RegisterSnapshot,
  after: RegisterSnapshot,
  at: string,
  source = 'fca',
): PositionEvent[] {
  const raw = diffAggregates(before, after, { levels: [1, 2, 5], minChange: 0.01, belowThresholdMove: 0.2 });
  return aggregateAlerts(raw, { source, from: `${at}-before`, detectedAt: at, listedOn: at.slice(0, 10) });
}
