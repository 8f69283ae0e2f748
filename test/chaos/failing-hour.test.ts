import { describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { startStack, sweepOutcomes, usePerTest, waitFor } from '../e2e/harness.js';

// Issue 20, "done when": an issuer failing with 400 and one with 500 for an hour of simulated time spend
// no more requests than the backoff allows, and a notice names each. The chaos run has no simulated
// clock, so this is a compressed hour on its own stack: every duration of the default plan divided by
// 480, a gate check every 250 ms standing for one every 2 min, so an hour is 30 gate checks (sweeps).
const SCALE = 480;
const GATE_MS = 120_000 / SCALE;
const HOUR_SWEEPS = 3_600_000 / 120_000;
/** `upstream.retries` of the e2e stack: a request is tried this many times more inside one attempt. */
const RETRIES = 1;

async function moreSweeps(app: App, count: number): Promise<void> {
  const target = (await sweepOutcomes(app)).length + count;
  await waitFor(`${count} more sweeps`, async () => (await sweepOutcomes(app)).length >= target, 90_000, 50);
}

/**
 * Tries the backoff allows in `sweeps` gate checks, counted, never timed: one, then again after 1, 2,
 * 4 … sweep intervals, so ⌊log2(intervals)⌋ + 1; one more for a backoff that ends within half a sweep of
 * a check (taken at that check). The backoff counts time: on a loaded machine a sweep can come several
 * intervals late, so the bound allows each sweep to stand for up to {@link LATE_SWEEPS} intervals.
 * Without a backoff it is one try a sweep (30); the doubling itself is the unit test's
 * (test/state/polling-state.test.ts).
 */
function triesAllowed(sweeps: number): number {
  return Math.floor(Math.log2(Math.max(1, sweeps * LATE_SWEEPS))) + 2;
}

/** How many intervals one sweep may stand for when the machine is loaded. */
const LATE_SWEEPS = 8;

describe('an hour of an issuer failing with 400 and one with 500 (compressed)', () => {
  const current = usePerTest();

  it('requests stay within the backoff, and a notice names each issuer, its cause and the next try', async () => {
    const stack = await startStack({
      issuers: 4,
      seed: 87,
      channels: ['slack'],
      config: {
        poll: { gateInterval: `${GATE_MS}ms`, maxStaleness: `${21_600_000 / SCALE}ms` },
        budget: { perMinute: 6_000, perDay: 5_000_000, reserve: 10, dayWindow: `${86_400_000 / SCALE}ms` },
      },
    });
    current.stack = stack;
    const app = await stack.openApp();
    current.app = app;
    const { sandbox } = stack;
    const ids = sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    const [bad, broken, other] = ids;
    if (!bad || !broken || !other) throw new Error('scenario too small');
    await app.startDaemon({ workerOnly: false });
    await waitFor('baseline', async () => (await app.ctx.snapshots.getMany(ids)).size === ids.length);
    const always = Number.POSITIVE_INFINITY;
    sandbox.faults.inject({ operation: 'positions', issuerId: bad, status: 400, times: always });
    sandbox.faults.inject({ operation: 'positions', issuerId: broken, status: 500, times: always });
    // The dataset moves: from now on both are due at every gate check, until a poll of theirs succeeds.
    const requests = (id: string) => sandbox.stats.count({ operation: 'positions', issuerId: id });
    const before = { bad: requests(bad), broken: requests(broken) };
    sandbox.scenario.disclose(other, 'Hour Of Failure Capital', 0.7);
    await moreSweeps(app, HOUR_SWEEPS);

    const spent = { bad: requests(bad) - before.bad, broken: requests(broken) - before.broken };
    const tries = triesAllowed(HOUR_SWEEPS);
    console.log(
      `an hour (${HOUR_SWEEPS} sweeps): 400 issuer ${spent.bad} requests, 500 issuer ${spent.broken}; ${tries} tries allowed`,
    );
    // A 400 is not retried: one request a try. Without the backoff it was one a sweep (30).
    expect(spent.bad).toBeGreaterThanOrEqual(2);
    expect(spent.bad).toBeLessThanOrEqual(tries);
    // A 5xx: its first job retries (3 attempts of 1 + retries requests), each later try is one attempt.
    const firstJob = 3 * (1 + RETRIES);
    expect(spent.broken).toBeGreaterThan(firstJob);
    expect(spent.broken).toBeLessThanOrEqual(firstJob + (tries - 1) * (1 + RETRIES));

    await waitFor('a notice for each failing issuer', async () => {
      const keys = (await app.ctx.notices.list()).map((n) => n.key);
      return keys.includes(`poll-overdue-${bad}`) && keys.includes(`poll-overdue-${broken}`);
    });
    const notices = await app.ctx.notices.list();
    const textOf = (id: string) => notices.find((n) => n.key === `poll-overdue-${id}`)?.text ?? '';
    expect(textOf(bad)).toContain('400');
    expect(textOf(bad)).toContain('next try');
    expect(textOf(broken)).toContain('5xx');
    expect(textOf(broken)).toContain('next try');
  }, 150_000);
});
