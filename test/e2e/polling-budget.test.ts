import { describe, expect, it } from 'vitest';
import { spawnDaemon, startStack, stopDaemons, usePerTest, waitFor } from './harness.js';

// The plan's windows, compressed: a "minute" of 2 s and a "day" of 30 s, in the sandbox and the config alike.
const MINUTE_MS = 2_000;
const DAY_MS = 30_000;
const PER_MINUTE = 20;
const PER_DAY = 60;
const RESERVE = 5;
const ISSUERS = 50;

describe('polling: the shared budget across processes', () => {
  const current = usePerTest();

  it('start + 3 workers on 50 issuers at 20/minute and 60/day (minute = 2 s, day = 30 s): no 429, never over the caps', {
    timeout: 85_000,
  }, async () => {
    const stack = await startStack({
      issuers: ISSUERS,
      seed: 11,
      channels: ['slack'],
      sandbox: {
        limits: { perMinute: PER_MINUTE, perDay: PER_DAY, minuteMs: MINUTE_MS, dayMs: DAY_MS },
      },
      config: {
        budget: {
          perMinute: PER_MINUTE,
          perDay: PER_DAY,
          reserve: RESERVE,
          minuteWindow: MINUTE_MS,
          dayWindow: DAY_MS,
        },
        // Scaled from 2m and 6h of a real day; the planner raises both to fit 55 polling requests a day.
        poll: { gateInterval: '1s', maxStaleness: '7500ms', concurrency: 4 },
      },
    });
    current.stack = stack;
    const { sandbox } = stack;
    const reader = await stack.openApp();
    current.app = reader;
    expect(reader.settings.plan.adjusted.length).toBeGreaterThan(0);
    expect(reader.settings.plan.requestsPerDay).toBeLessThanOrEqual(PER_DAY - RESERVE);

    current.daemons.push(await spawnDaemon(stack, 'start'));
    current.daemons.push(
      ...(await Promise.all([
        spawnDaemon(stack, 'worker'),
        spawnDaemon(stack, 'worker'),
        spawnDaemon(stack, 'worker'),
      ])),
    );

    const ids = sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    const app = reader;
    // 50 polls + the gate checks need two compressed days at 55 polling requests a day.
    await waitFor(
      'a baseline snapshot of every issuer',
      async () => (await app.ctx.snapshots.getMany(ids)).size === ids.length,
      60_000,
      250,
    );
    const baselineAt = Date.now();
    // Several dataset refreshes while the budget is still spent on the baseline and the last refresh:
    // each one read by a gate check before the next, so no refresh hides another.
    const listReads = () => sandbox.stats.count({ operation: 'issuers', status: 200 });
    for (let step = 0; step < 3; step++) {
      sandbox.scenario.step();
      const before = listReads();
      await waitFor(`a gate check after refresh ${step + 1}`, () => listReads() > before, 30_000, 100);
    }
    // The latest refresh is followed within the day windows that follow it.
    const latest = sandbox.scenario.lastUpdated();
    await waitFor(
      'some snapshots of the latest refresh',
      async () => [...(await app.ctx.snapshots.getMany(ids)).values()].some((s) => s.lastUpdated === latest),
      40_000,
      250,
    );
    await stopDaemons(current.daemons);
    current.daemons = [];

    const stats = sandbox.stats;
    expect(stats.requests.filter((r) => r.status === 429)).toEqual([]);
    expect(stats.maxInWindow(MINUTE_MS)).toBeLessThanOrEqual(PER_MINUTE);
    expect(stats.maxInWindow(DAY_MS)).toBeLessThanOrEqual(PER_DAY);
    // Polling never spent the reserve.
    expect(stats.maxInWindow(DAY_MS)).toBeLessThanOrEqual(PER_DAY - RESERVE);
    // The budget was the limit: some minute windows were used to the cap.
    expect(stats.maxInWindow(MINUTE_MS)).toBe(PER_MINUTE);
    expect(stats.count({ operation: 'positions' })).toBeGreaterThan(ISSUERS);
    const polledAfterBaseline = stats.requests.filter(
      (r) => r.operation === 'positions' && r.at > baselineAt,
    ).length;
    expect(polledAfterBaseline).toBeGreaterThan(0);
  });
});
