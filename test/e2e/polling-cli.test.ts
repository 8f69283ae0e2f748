import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { nextWindowStart } from '../../src/budget/windows.js';
import {
  runShortwatch,
  spawnDaemon,
  startStack,
  stopDaemons,
  updateConfig,
  usePerTest,
  waitFor,
} from './harness.js';

describe('polling from the command line: watchlist names, the plan and the budget', () => {
  const current = usePerTest();

  it('a watchlist name resolves whatever its case and spacing; an unknown one stops `start` with exit 2 and the closest names', async () => {
    const stack = await startStack({ issuers: 6, seed: 61, channels: ['slack'] });
    current.stack = stack;
    const [first, second] = stack.sandbox.scenario.issuers();
    if (!first || !second) throw new Error('the scenario has too few issuers');
    const shouted = `  ${second.name.toUpperCase().split(' ').join('   ')} `;
    updateConfig(stack, (config) => ({
      ...config,
      watchlist: [{ id: first.svc_issuer_id }, { name: shouted }],
    }));
    const reader = await stack.openApp();
    current.app = reader;
    current.daemons.push(await spawnDaemon(stack, 'start'));
    await waitFor(
      'both issuers polled',
      async () =>
        (await reader.ctx.snapshots.getMany([first.svc_issuer_id, second.svc_issuer_id])).size === 2,
    );
    const status = await runShortwatch(['-c', stack.configPath, 'status', '--json']);
    expect(status.code).toBe(0);
    const report: { issuers: Array<{ id: string; name: string }> } = JSON.parse(status.stdout);
    expect(report.issuers.map((i) => i.id).sort()).toEqual(
      [first.svc_issuer_id, second.svc_issuer_id].sort(),
    );
    await stopDaemons(current.daemons);
    current.daemons = [];

    // Two letters swapped: nothing matches, and the message says what was meant.
    const typo = second.name.replace(/^(\w)(\w)/, '$2$1');
    updateConfig(stack, (config) => ({ ...config, watchlist: [{ name: typo }] }));
    const failed = await runShortwatch(['-c', stack.configPath, 'start']);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain(
      `"${typo}" matches no issuer; closest: ${second.name} (${second.svc_issuer_id})`,
    );
    expect(failed.stdout).toBe('');
  });

  it('`plan` prints the plan in words; with the gate off, a watchlist too big for the day exits 2 with the numbers', async () => {
    const stack = await startStack({ issuers: 6, seed: 62, channels: ['slack'] });
    current.stack = stack;
    updateConfig(stack, (config) => ({
      ...config,
      budget: { perMinute: 100, perDay: 1_000, reserve: 50 },
      poll: { gateInterval: '2m', maxStaleness: '6h' },
    }));
    const plan = await runShortwatch(['-c', stack.configPath, 'plan']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('Watchlist: 6 issuers; budget 100/minute, 1000/day, reserve 50.');
    expect(plan.stdout).toContain(
      'The gate checks GET /issuers 720 times a day, every 2m (at most 1 check a minute).',
    );
    expect(plan.stdout).toContain(
      'No watched issuer goes unpolled longer than 6h (the hard bound, poll.maxStaleness)',
    );
    expect(plan.stdout).toContain('of the 950 available to polling (perDay 1000 - reserve 50)');

    // With the gate on, a day too short for a full sweep is planned by change likelihood (issue 16);
    // with it off, the sweep is all there is, and a day that cannot pay one is refused.
    updateConfig(stack, (config) => ({
      ...config,
      budget: { perMinute: 100, perDay: 10, reserve: 5 },
      poll: { gate: false, maxStaleness: '6h' },
    }));
    const tooBig = await runShortwatch(['-c', stack.configPath, 'plan']);
    expect(tooBig.code).toBe(2);
    expect(tooBig.stderr).toContain(
      'a watchlist of 6 issuers needs 6 requests for one sweep but only 5 a day are available to polling (perDay 10 - reserve 5)',
    );
    // `start` refuses the same config before sending anything.
    const start = await runShortwatch(['-c', stack.configPath, 'start']);
    expect(start.code).toBe(2);
    expect(stack.sandbox.stats.requests).toEqual([]);
  });

  it('an empty budget: the CLI says how long it would wait and exits 1; with --wait it waits for the next window', async () => {
    const dayMs = 20_000;
    const stack = await startStack({ issuers: 2, seed: 63, channels: ['slack'] });
    current.stack = stack;
    updateConfig(stack, (config) => ({
      ...config,
      budget: { perMinute: 100, perDay: 3, reserve: 0, dayWindow: dayMs },
    }));
    const app = await stack.openApp();
    current.app = app;
    const budget = app.ctx.budget;
    /** Spends every token of a day window with at least 12 s left; returns when it ends. */
    const exhaust = async (): Promise<number> => {
      if (nextWindowStart(Date.now(), dayMs) - Date.now() < 12_000)
        await sleep(nextWindowStart(Date.now(), dayMs) - Date.now() + 50);
      while ((await budget.take({ interactive: true })).granted) {
        // Keep taking: the CLI may spend the reserve, so every token goes.
      }
      return nextWindowStart(Date.now(), dayMs);
    };

    await exhaust();
    const refused = await runShortwatch(['-c', stack.configPath, 'issuers']);
    expect(refused.code).toBe(1);
    const wait = /no token now \(day\); the next one is in (\d+)s/.exec(refused.stderr);
    expect(wait, refused.stderr).not.toBeNull();
    expect(Number(wait?.[1])).toBeGreaterThan(0);
    expect(Number(wait?.[1])).toBeLessThanOrEqual(dayMs / 1000);
    expect(refused.stderr).toContain('--wait');
    expect(stack.sandbox.stats.requests).toEqual([]);

    const nextEnd = await exhaust();
    const waited = await runShortwatch(['-c', stack.configPath, '--wait', 'issuers']);
    expect(waited.code).toBe(0);
    expect(waited.stdout).toMatch(/Rate budget empty \(day\); waiting \d+s for the next token/);
    expect(waited.stdout).toContain('2 of 2 issuers');
    const requests = stack.sandbox.stats.requests;
    expect(requests).toHaveLength(1);
    expect(requests[0]?.at).toBeGreaterThanOrEqual(nextEnd);
  }, 60_000);
});
