import { describe, expect, it } from 'vitest';
import { KEPT_RETRY_MS, keptMemory } from '../../../src/channels/slack-app/kept-memory.js';
import type { ChannelMemory } from '../../../src/channels/types.js';

/** A memory whose first `failing` writes throw, as a Redis restart would; it records what landed. */
function flakyMemory(failing: number) {
  const stored = new Map<string, string>();
  let tries = 0;
  const memory: ChannelMemory = {
    get: async (key) => stored.get(key),
    set: async (key, value) => {
      tries += 1;
      if (tries <= failing) throw new Error('Reached the max retries per request limit');
      stored.set(key, value);
    },
  };
  return { memory, stored, tries: () => tries };
}

describe('keptMemory', () => {
  it.each([
    ['a write that lands at once', 0, []],
    ['a write refused three times, then taken', 3, [KEPT_RETRY_MS.first, 200, 400]],
    ['a long outage: the wait grows to its longest', 6, [100, 200, 400, 800, 1_600, KEPT_RETRY_MS.max]],
  ] as const)('%s', async (_, failing, waits) => {
    const flaky = flakyMemory(failing);
    const slept: number[] = [];
    const kept = keptMemory(flaky.memory, { sleep: async (ms) => void slept.push(ms), open: () => true });
    await kept.set('thread:C1', '1700000000.000001', 60_000);
    expect(flaky.stored.get('thread:C1')).toBe('1700000000.000001');
    expect(slept).toEqual(waits);
    expect(flaky.tries()).toBe(failing + 1);
  });

  it('gives up once the sender is closed, with the write error', async () => {
    const flaky = flakyMemory(100);
    let open = true;
    const kept = keptMemory(flaky.memory, {
      sleep: async () => {
        open = false;
      },
      open: () => open,
    });
    await expect(kept.set('thread:C1', 'ts', 60_000)).rejects.toThrow(/max retries/);
    expect(flaky.tries()).toBe(2);
    expect(flaky.stored.size).toBe(0);
  });

  it('does not retry a read: it comes before the call it decides', async () => {
    let reads = 0;
    const memory: ChannelMemory = {
      get: async () => {
        reads += 1;
        throw new Error('Connection is closed.');
      },
      set: async () => undefined,
    };
    const kept = keptMemory(memory, { sleep: async () => undefined, open: () => true });
    await expect(kept.get('thread:C1')).rejects.toThrow(/closed/);
    expect(reads).toBe(1);
  });
});
