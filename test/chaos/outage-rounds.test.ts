import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fault, type OutageWorld, runRound, startOutageWorld } from './outage-rounds.js';

// Issue 29, in the suite: one round of each fault with `start` + `worker` (scripts/outage-rounds.ts runs
// twenty of each). Redis unreachable for 15 s and for 30 s, and every connection frozen for 15 s, each
// striking as the first message of a burst reaches Slack or the SMTP server: every message arrives once.

describe('two processes through Redis outages and frozen connections, mid-burst', () => {
  let world: OutageWorld | undefined;

  beforeAll(async () => {
    world = await startOutageWorld(29);
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  }, 60_000);

  it.each<[string, Fault]>([
    ['Redis unreachable for 15 s', { kind: 'outage', ms: 15_000 }],
    ['Redis unreachable for 30 s', { kind: 'outage', ms: 30_000 }],
    ['every connection frozen (half-open) for 15 s', { kind: 'freeze', ms: 15_000 }],
  ])(
    '%s: every message once',
    async (_, fault) => {
      if (!world) throw new Error('no world');
      const round = await runRound(world, fault);
      expect(round.missing).toEqual([]);
      expect(round.slackRepeats).toEqual([]);
      expect(round.mailRepeats).toEqual([]);
      expect(round.parked).toBe(0);
      expect(round.received).toBeGreaterThan(0);
      expect(round.mails).toBeGreaterThan(0);
    },
    300_000,
  );
});
