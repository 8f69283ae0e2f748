import type { Duty } from '../duty-scheduler.js';
import { BEAT_MS } from './beat.js';

/**
 * Whether the schedulers must be upserted for the subscribers again: their version moved since the last
 * upsert. Undefined version: this process upserts no schedulers (a worker), or there are no subscribers.
 */
export function subscribersChanged(seen: string | undefined, version: string | undefined): boolean {
  return version !== undefined && seen !== version;
}

/**
 * Subscribers' digests run on BullMQ job schedulers, one per schedule they share (jobs/subscriber-digest.ts):
 * a subscriber added, edited or removed while the daemon runs moves them. A `start` process upserts the
 * schedulers again after each change of the subscribers' version; nothing happens between changes.
 */
export function subscriberDigests(deps: {
  version: () => Promise<string | undefined>;
  syncSchedulers: () => Promise<void>;
}): Duty {
  let seen: string | undefined;
  return {
    name: 'subscriber-digests',
    periodMs: BEAT_MS,
    reads: '`<t>:subscribers:version`, then every subscriber after a change',
    writes: "the subscribers' digest schedulers (a `start` process with `subscribers`)",
    failure: "could not upsert the subscribers' digest schedulers",
    run: async () => {
      const version = await deps.version();
      if (!subscribersChanged(seen, version)) return;
      await deps.syncSchedulers();
      seen = version;
    },
  };
}
