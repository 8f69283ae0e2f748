import { diffPositions, type Snapshot } from '../../src/positions/index.js';
import type { ChangeTracker } from './change-tracker.js';
import type { PollableDataset } from './skewed-dataset.js';

/**
 * A snapshot of every issuer at `now`, outside the budget: the runs start from a deployment that has
 * seen every issuer once, so no poller spends its first days on baselines.
 */
export function baselineAll(
  dataset: PollableDataset,
  now: number,
  thresholds: number[],
  tracker: ChangeTracker,
): Map<string, Snapshot> {
  const snapshots = new Map<string, Snapshot>();
  for (const issuer of dataset.issuers()) {
    const id = issuer.svc_issuer_id;
    const answer = dataset.read(issuer);
    const { next } = diffPositions({
      previous: null,
      issuer: { id, name: issuer.name },
      rows: answer.rows,
      lastUpdated: answer.lastUpdated,
      now: new Date(now),
      thresholds,
      onFirstSeen: 'baseline',
    });
    snapshots.set(id, next);
    tracker.polled(id, now, 0);
  }
  return snapshots;
}
