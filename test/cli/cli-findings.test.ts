import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusReport } from '../../src/ops/status.js';
import { parseScenarioFile, scenarioFromFile } from '../../src/sandbox/index.js';
import { runShortwatch, type Stack, startStack, updateConfig } from '../e2e/harness.js';
import { runMain } from './run-main.js';

// Issue 12, findings 5–8, from the command line as a user meets them: exit codes, what is said, and
// what is (not) asked of the upstream or written to Redis.

const row = (position_holder: string, value: number, date: string) => ({ position_holder, value, date });

/** Acme files D. E. Shaw under two spellings at once: one holder to the alerts. */
const SCENARIO = parseScenarioFile(
  {
    last_updated: '2026-01-05T17:30:00.000Z',
    issuers: [
      {
        svc_issuer_id: 'ISS-0001',
        name: 'Acme plc',
        active: [
          row('D. E. Shaw & Co., L.P.', 0.6, '2025-12-01'),
          row('Marshall Wace LLP', 1, '2025-12-05'),
          row('D.E. SHAW & CO LP', 1.6, '2025-12-10'),
        ],
      },
      { svc_issuer_id: 'ISS-0002', name: 'Borealis Mining plc', active: [row('Citadel', 0.8, '2025-12-02')] },
      { svc_issuer_id: 'ISS-0003', name: 'Cobalt Energy plc', active: [] },
      { svc_issuer_id: 'ISS-0004', name: 'Borealis Shipping plc', active: [] },
    ],
  },
  'cli-findings',
);

describe('CLI findings 5–8: names that must exist, numbers, positions, plan and status', () => {
  let stack: Stack;
  const cli = (...args: string[]) => runMain(['-c', stack.configPath, ...args]);

  /** The issuer list as a sweep saves it; `positions` is the one command that fetches it itself. */
  async function saveDirectory(): Promise<void> {
    const app = await stack.openApp();
    try {
      await app.ctx.directory.save(SCENARIO.issuers, SCENARIO.last_updated, new Date());
    } finally {
      await app.stop(1_000);
    }
  }

  beforeAll(async () => {
    stack = await startStack({ sandbox: { scenario: scenarioFromFile(SCENARIO) } });
    updateConfig(stack, (config) => ({
      ...config,
      budget: { perMinute: 100, perDay: 1_000, reserve: 50 },
      watchlist: [{ id: 'ISS-0001', label: 'ACME Group' }, { name: 'Borealis Mining plc' }],
    }));
  });

  afterAll(async () => {
    await stack?.cleanup();
  });

  it('positions: a partial name resolves against the issuer list, and holders are counted as the alerts count them', async () => {
    await stack.redis.redis.del(stack.keys.directory, stack.keys.directoryMeta);
    const first = await cli('positions', 'acme');
    expect(first.code, first.stderr).toBe(0);
    // No issuer list saved yet: one request fetches it, one asks for the positions; no 404.
    expect(stack.sandbox.stats.requests.map((r) => [r.operation, r.issuerId, r.status])).toEqual([
      ['issuers', undefined, 200],
      ['positions', 'ISS-0001', 200],
    ]);
    expect(first.stdout).toContain('Acme plc (ISS-0001), active positions');
    expect(first.stdout).toMatch(/^D\.E\. SHAW & CO LP\s+1\.60%\s+2025-12-10$/m);
    expect(first.stdout).toMatch(/^Marshall Wace LLP\s+1\.00%\s+2025-12-05$/m);
    expect(first.stdout).not.toContain('D. E. Shaw & Co., L.P.');
    expect(first.stdout).toContain('2 holders, total disclosed short 2.60%');

    stack.sandbox.stats.reset();
    const unknown = await cli('positions', 'Nope plc');
    const several = await cli('positions', 'boreal');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no issuer "Nope plc" in the issuer list or the watchlist');
    expect(several.code).toBe(2);
    expect(several.stderr).toContain(
      '"boreal" names several issuers: Borealis Mining plc (ISS-0002), Borealis Shipping plc (ISS-0004)',
    );
    // The saved list answered both: nothing was asked of the upstream.
    expect(stack.sandbox.stats.count()).toBe(0);
  });

  it('mute: an unknown issuer exits 2 naming it and the closest names, and stores nothing', async () => {
    await saveDirectory();
    const nonexistent = await cli('mute', 'issuer', 'Nonexistent plc', '--for', '1d');
    const typo = await cli('mute', 'issuer', 'Acme plx', '--for', '1d');
    expect(nonexistent.code).toBe(2);
    expect(nonexistent.stderr).toContain(
      'no issuer "Nonexistent plc" in the issuer list or the watchlist; closest:',
    );
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/no issuer "Acme plx" .*; closest: Acme plc \(ISS-0001\)/);
    expect(await stack.redis.redis.hlen(stack.keys.mutes)).toBe(0);

    // A watchlist label names its issuer; the mute is kept by id, which routing matches.
    const byLabel = await cli('mute', 'issuer', 'acme group', '--for', '1d');
    expect(byLabel.code, byLabel.stderr).toBe(0);
    expect(byLabel.stdout).toContain('Muted issuer "ISS-0001" on every channel');
    const unmuted = await cli('unmute', 'issuer', 'Acme plc');
    expect(unmuted.code, unmuted.stderr).toBe(0);
    expect(await stack.redis.redis.hlen(stack.keys.mutes)).toBe(0);
  });

  it('unmute without the channel of a channel mute says which mutes exist and exits 2', async () => {
    await saveDirectory();
    const muted = await cli('mute', 'issuer', 'Borealis Mining plc', '--for', '1d', '--channel', 'desk');
    expect(muted.code, muted.stderr).toBe(0);

    const wrong = await cli('unmute', 'issuer', 'Borealis Mining plc');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(
      'no mute of issuer "Borealis Mining plc" on every channel; its mutes in force are:',
    );
    expect(wrong.stderr).toMatch(
      /on desk until \S+: shortwatch unmute issuer "Borealis Mining plc" --channel desk/,
    );
    expect(await stack.redis.redis.hlen(stack.keys.mutes)).toBe(1);

    const right = await cli('unmute', 'issuer', 'borealis  mining PLC', '--channel', 'desk');
    expect(right.code, right.stderr).toBe(0);
    expect(await stack.redis.redis.hlen(stack.keys.mutes)).toBe(0);
    const again = await cli('unmute', 'issuer', 'Borealis Mining plc', '--channel', 'desk');
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('no mute of issuer "Borealis Mining plc" is in force');
  });

  it('route: values outside 0–100 are refused; an unwatched or unknown issuer is never `send`', async () => {
    await saveDirectory();
    const route = (issuer: string, value: string) =>
      cli('route', '--issuer', issuer, '--holder', 'Marshall Wace', '--kind', 'opened', '--value', value);
    const negative = await route('Acme plc', '-5');
    const over = await route('Acme plc', '150');
    const unwatched = await route('Cobalt Energy plc', '0.7');
    const unknown = await route('Nowhere plc', '0.7');
    const watched = await route('ACME Group', '0.7');
    expect(negative.code).toBe(2);
    expect(negative.stderr).toContain('--value must be a percentage of issued capital from 0 to 100');
    expect(over.code).toBe(2);
    expect(over.stderr).toContain('(got "150")');

    expect(unwatched.code, unwatched.stderr).toBe(0);
    expect(unwatched.stdout).not.toMatch(/\bsend\b/);
    expect(unwatched.stdout).toMatch(
      /^desk\s+skip\s+Cobalt Energy plc \(ISS-0003\) is not on the watchlist/m,
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no issuer "Nowhere plc" in the issuer list or the watchlist');

    expect(watched.code, watched.stderr).toBe(0);
    expect(watched.stdout).toMatch(/^desk\s+send\s+passes filter; sent now$/m);
  });

  it('events: --limit must be a whole number of at least 1', async () => {
    for (const limit of ['abc', '0', '-1']) {
      const refused = await cli('events', '--limit', limit);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`--limit must be a whole number of at least 1 (got "${limit}")`);
    }
    const one = await cli('events', '--limit', '1');
    expect(one.code, one.stderr).toBe(0);
    // The binary's own exit status, not only main's answer: a child process, as a user runs it.
    const spawned = await runShortwatch(['-c', stack.configPath, 'events', '--limit', 'abc']);
    expect(spawned.code).toBe(2);
    expect(spawned.stderr).toContain('--limit must be a whole number of at least 1 (got "abc")');
  });

  it('events ISSUER: an unknown issuer is a usage error naming the closest, not an empty table', async () => {
    await saveDirectory();
    const unknown = await cli('events', 'Boreal Minning plc');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Borealis Mining plc');
    const partial = await cli('events', 'borealis mining');
    expect(partial.code, partial.stderr).toBe(0);
  });

  it('plan: speaks of the per-minute cap, not of how long a sweep takes', async () => {
    const plan = await cli('plan');
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(
      'A full sweep of 2 issuers fits within the per-minute cap (100 requests a minute), so it is not held back by it.',
    );
    expect(plan.stdout).not.toContain('takes at least');
  });

  it('status before the first poll: "not polled yet", and schedulers not registered rather than LATE', async () => {
    await saveDirectory();
    const text = await cli('status');
    const json = await cli('status', '--json');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^ISS-0001\s+Acme plc\s+not polled yet\s+-\s+-\s+ok$/m);
    expect(text.stdout).toMatch(/^ISS-0002\s+Borealis Mining plc\s+not polled yet\s+-\s+-\s+ok$/m);
    expect(text.stdout).not.toMatch(/\b0%/);
    expect(text.stdout).not.toContain('LATE');
    expect(text.stdout).toContain('Schedulers: sweep not registered yet (`shortwatch start` registers it)');
    const report: StatusReport = JSON.parse(json.stdout);
    expect(report.schedulers).toEqual([{ id: 'sweep', registered: false, next: null, late: false }]);
  });
});
