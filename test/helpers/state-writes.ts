import type { Snapshot } from '../../src/positions/types.js';
import { commitPoll } from '../../src/state/poll-commit.js';
import type { RedisClient } from '../../src/state/redis-connection.js';

/**
 * Writes a snapshot alone, as a poll that found no event commits it: if the stored snapshot's polledAt
 * is `expectedPolledAt` (null: none stored). False: a concurrent or stale poll lost the race.
 */
export function commitSnapshot(
  redis: RedisClient,
  root: string,
  snapshot: Snapshot,
  expectedPolledAt: string | null,
): Promise<boolean> {
  return commitPoll(redis, root, {
    snapshot,
    expectedPolledAt,
    logged: [],
    targets: [],
    suppressed: [],
    eventsKept: 0,
  });
}

/** Counts events a mute kept from channels through the poll commit that counts them in the daemon. */
export function commitSuppressed(
  redis: RedisClient,
  root: string,
  snapshot: Snapshot,
  suppressed: Array<{ channel: string; count: number }>,
): Promise<boolean> {
  return commitPoll(redis, root, {
    snapshot,
    expectedPolledAt: null,
    logged: [],
    targets: [],
    suppressed,
    eventsKept: 0,
  });
}
