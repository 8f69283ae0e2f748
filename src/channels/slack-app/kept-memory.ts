import type { ChannelMemory } from '../types.js';

/** First and longest wait between two tries of a write the memory did not take. */
export const KEPT_RETRY_MS = { first: 100, max: 2_000 } as const;

/** What {@link keptMemory} needs besides the memory: a sleep, and whether the sender is still open. */
export interface KeptMemoryDeps {
  sleep: (ms: number) => Promise<void>;
  open: () => boolean;
}

/**
 * The channel's memory with writes tried again until they land. Every write follows a call Slack accepted
 * (a thread's parent posted, a message edited, a DM opened): a write lost to a Redis outage failed the
 * step, and its retry posted that parent again and started a second thread (seen in
 * test/e2e/slack-app-redis-restart.test.ts). Reads are not retried: a read comes before its call, so a
 * failed one fails a step that sent nothing. A closed sender (the process stopping) gives up: the step
 * is then sent again by the next attempt, as after a crash.
 */
export function keptMemory(memory: ChannelMemory, deps: KeptMemoryDeps): ChannelMemory {
  return {
    get: (key) => memory.get(key),
    async set(key, value, ttlMs) {
      for (let failures = 0; ; failures++) {
        try {
          await memory.set(key, value, ttlMs);
          return;
        } catch (error) {
          if (!deps.open()) throw error;
        }
        await deps.sleep(Math.min(KEPT_RETRY_MS.max, KEPT_RETRY_MS.first * 2 ** failures));
      }
    },
  };
}
