import { describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { holderKey } from '../../src/positions/index.js';
import type { LimitWindow, RequestRecord, ScenarioChange } from '../../src/sandbox/index.js';
import {
  awayFromWindowEnd,
  runShortwatch,
  type Stack,
  spawnDaemon,
  startStack,
  sweepOutcomes,
  usePerTest,
  waitFor,
} from './harness.js';

const eventKeys = (changes: readonly ScenarioChange[]) =>
  changes.map((c) => `${c.issuerId}|${holderKey(c.holder)}|${c.kind}`).sort();

async function loggedKeys(app: App): Promise<string[]> {
  const events = await app.ctx.eventLog.recent({ limit: 1_000 });
  return events.map((e) => `${e.issuer.id}|${e.holderKey}|${e.kind}`).sort();
}

async function blockedSweeps(app: App): Promise<number> {
  return (await sweepOutcomes(app)).filter((o) => o === 'blocked').length;
}

describe('polling: an upstream 429 holds every process until the stated reset', () => {
  const current = usePerTest();

  /** In-process `start` plus one `worker` child, both past the baseline. */
  async function startWorld(options: Parameters<typeof startStack>[0]): Promise<{ stack: Stack; app: App }> {
    const stack = await startStack(options);
    current.stack = stack;
    const app = await stack.openApp();
    current.app = app;
    await app.startDaemon({ workerOnly: false });
    current.daemons.push(await spawnDaemon(stack, 'worker'));
    const ids = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    const opened = app;
    await waitFor(
      'baseline snapshots',
      async () => (await opened.ctx.snapshots.getMany(ids)).size === ids.length,
    );
    return { stack, app: opened };
  }

  /**
   * Injects a 429 for `window` and moves the dataset; once polling has resumed after `resetAt(limited)`,
   * checks that no process sent anything in between, and returns the 429's record and the step's changes.
   */
  async function limitOnce(
    world: { stack: Stack; app: App },
    window: LimitWindow,
    retryAfterSeconds: number | undefined,
    resetAt: (limited: RequestRecord) => number,
    whileBlocked: () => Promise<void> = async () => undefined,
  ): Promise<{ limited: RequestRecord; reset: number; changes: ScenarioChange[] }> {
    const { sandbox } = world.stack;
    const from = sandbox.stats.requests.length;
    const blockedBefore = await blockedSweeps(world.app);
    sandbox.faults.rateLimit(window, retryAfterSeconds === undefined ? {} : { retryAfterSeconds });
    const changes = sandbox.scenario.step();
    expect(changes.length).toBeGreaterThan(0);
    const found = await waitFor('the injected 429', () =>
      sandbox.stats.requests.slice(from).find((r) => r.status === 429),
    );
    const limited = found ?? expect.fail('no 429 recorded');
    const reset = resetAt(limited);
    // Polls run side by side in two processes: a token taken before the 429's block was stored in Redis
    // is a request already on its way, which may reach the upstream after the 429. What must not happen
    // is a request sent once the block is stored, so the count starts where the block is seen stored.
    const redis = world.stack.redis.redis;
    await waitFor(
      'the block stored',
      async () => Number(await redis.hget(world.stack.ledger.budgetBlocked, 'until')) > limited.at,
      20_000,
      10,
    );
    const blockSeenAt = Date.now();
    await whileBlocked();
    await waitFor(
      'a request after the reset',
      () => sandbox.stats.requests.some((r) => r.at >= reset && r.status === 200),
      reset - Date.now() + 20_000,
    );
    const inFlight = sandbox.stats.requests.filter((r) => r.at > limited.at && r.at <= blockSeenAt);
    // At most what two processes run at once (poll.concurrency 4 each).
    expect(inFlight.length).toBeLessThanOrEqual(8);
    const between = sandbox.stats.requests.filter((r) => r.at > blockSeenAt && r.at < reset);
    expect(between).toEqual([]);
    // Sweeps kept running while blocked and sent nothing.
    expect(await blockedSweeps(world.app)).toBeGreaterThan(blockedBefore);
    return { limited, reset, changes };
  }

  it('day then minute 429 with Retry-After: nothing is sent by any process (CLI included) until it passes', {
    timeout: 80_000,
  }, async () => {
    const world = await startWorld({ issuers: 5, seed: 21, config: { poll: { gateInterval: '300ms' } } });
    const expected: ScenarioChange[] = [];

    await awayFromWindowEnd(60_000, 3_000);
    const day = await limitOnce(
      world,
      'day',
      10,
      (limited) => limited.at + 10_000,
      async () => {
        const cli = await runShortwatch(['-c', world.stack.configPath, 'issuers']);
        expect(cli.code).toBe(1);
        expect(cli.stderr).toContain('no token now (blocked)');
        expect(cli.stderr).toMatch(/the next one is in \d+s/);
      },
    );
    expect(day.limited.operation).toBe('issuers');
    expected.push(...day.changes);
    await waitFor(
      'the day-blocked changes',
      async () => (await loggedKeys(world.app)).length === expected.length,
    );
    expect(await loggedKeys(world.app)).toEqual(eventKeys(expected));

    await awayFromWindowEnd(60_000, 3_000);
    const minute = await limitOnce(world, 'minute', 3, (limited) => limited.at + 3_000);
    expected.push(...minute.changes);
    await waitFor(
      'the minute-blocked changes',
      async () => (await loggedKeys(world.app)).length === expected.length,
    );
    expect(await loggedKeys(world.app)).toEqual(eventKeys(expected));
    expect(world.stack.sandbox.stats.count({ status: 429 })).toBe(2);
  });

  it('day then minute 429 without Retry-After: minute held to its window end; day probed first at the end of our day window when sooner than budget.probeInterval (minute = 4 s, day = 12 s)', {
    timeout: 80_000,
  }, async () => {
    const windows = { minute: 4_000, day: 12_000 };
    const world = await startWorld({
      issuers: 5,
      seed: 22,
      sandbox: {
        retryAfterHeader: false,
        limits: { perMinute: 6_000, perDay: 5_000_000, minuteMs: windows.minute, dayMs: windows.day },
      },
      config: {
        poll: { gateInterval: '300ms' },
        budget: {
          perMinute: 6_000,
          perDay: 5_000_000,
          reserve: 10,
          minuteWindow: windows.minute,
          dayWindow: windows.day,
        },
      },
    });
    const expected: ScenarioChange[] = [];
    const windowEnd = (length: number) => (limited: RequestRecord) =>
      Math.floor(limited.at / length) * length + length;
    for (const window of ['day', 'minute'] as const) {
      await awayFromWindowEnd(windows[window], windows[window] * 0.6);
      await awayFromWindowEnd(windows.minute, windows.minute * 0.6);
      const run = await limitOnce(world, window, undefined, windowEnd(windows[window]));
      expected.push(...run.changes);
      await waitFor(
        `the ${window}-blocked changes`,
        async () => (await loggedKeys(world.app)).length === expected.length,
      );
      expect(await loggedKeys(world.app)).toEqual(eventKeys(expected));
    }
  });
});
