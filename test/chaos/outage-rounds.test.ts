import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fault, type OutageWorld, runRound, startOutageWorld } from './outage-rounds.js';

// Issue 29, in the suite: one round with `start` + `worker`, Redis unreachable for 15 s as the first
// message of a burst reaches Slack or the SMTP server: every message arrives once. The 30 s outage and
// the 15 s freeze (each 60-75 s a round) run in test/chaos/outage-rounds-run.ts, outside the suite; their
// figures are in docs/operations.md ("The delivery guarantee").

describe('two processes through Redis outages and frozen connections, mid-burst', () => {
  let world: OutageWorld | undefined;

  beforeAll(async () => {
    world = await startOutageWorld(29);
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  }, 60_000);

  it.each<[string, Fault]>([['Redis unreachable for 15 s', { kind: 'outage', ms: 15_000 }]])(
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
