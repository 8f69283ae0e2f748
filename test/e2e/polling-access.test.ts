import { describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { holderKey } from '../../src/positions/index.js';
import type { ScenarioChange } from '../../src/sandbox/index.js';
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

const REVOKED_TITLE = 'Upstream access revoked';

const eventKeys = (changes: readonly ScenarioChange[]) =>
  changes.map((c) => `${c.issuerId}|${holderKey(c.holder)}|${c.kind}`).sort();

async function loggedKeys(app: App): Promise<string[]> {
  const events = await app.ctx.eventLog.recent({ limit: 1_000 });
  return events.map((e) => `${e.issuer.id}|${e.holderKey}|${e.kind}`).sort();
}

/** Completed sweeps that found access revoked and sent nothing. */
async function revokedSweeps(app: App): Promise<number> {
  return (await sweepOutcomes(app)).filter((o) => o === 'revoked').length;
}

/** Ops-channel posts mentioning `text`. */
function opsPosts(stack: Stack, text: string): number {
  return stack.slack
    .delivered()
    .filter((post) => post.path.endsWith('/ops') && JSON.stringify(post.payload).includes(text)).length;
}

async function statusJson(stack: Stack): Promise<{
  upstream: { access: string; since: string | null };
  notices: Array<{ key: string }>;
}> {
  const result = await runShortwatch(['-c', stack.configPath, 'status', '--json']);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

describe('polling: a 401 stops every process after one request', () => {
  const current = usePerTest();

  it('an injected 401: one request, one notice, status says unauthorized; `shortwatch resume` restarts polling', {
    timeout: 80_000,
  }, async () => {
    const stack = await startStack({
      issuers: 4,
      seed: 31,
      channels: ['slack', 'ops'],
      config: { poll: { gateInterval: '250ms' } },
    });
    current.stack = stack;
    const { sandbox } = stack;
    const app = await stack.openApp();
    current.app = app;
    await app.startDaemon({ workerOnly: false });
    current.daemons.push(await spawnDaemon(stack, 'worker'));
    const ids = sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    const running = app;
    await waitFor('baseline', async () => (await running.ctx.snapshots.getMany(ids)).size === ids.length);

    await awayFromWindowEnd(60_000, 3_000);
    const from = sandbox.stats.requests.length;
    const revokedBefore = await revokedSweeps(app);
    const injectedAt = Date.now();
    sandbox.faults.inject({ status: 401, times: Number.POSITIVE_INFINITY });
    await waitFor('the 401', () => sandbox.stats.count({ status: 401 }) === 1);
    // The dataset moves while access is stopped: the sweeps that follow would poll every issuer.
    const changes = sandbox.scenario.step();
    expect(changes.length).toBeGreaterThan(0);
    await waitFor(
      'a dozen sweeps held back by the revocation',
      async () => (await revokedSweeps(running)) >= revokedBefore + 12,
      30_000,
    );
    // Requests that arrived after the fault was set: a gate check already in flight may be answered
    // (and recorded) after `from` with its 200 (seen in a clean-clone CI run).
    const since = sandbox.stats.requests.slice(from).filter((r) => r.at >= injectedAt);
    expect(since.map((r) => r.status)).toEqual([401]);

    const status = await statusJson(stack);
    expect(status.upstream.access).toBe('unauthorized');
    expect(status.upstream.since).not.toBeNull();
    expect(status.notices.filter((n) => n.key === 'access-revoked')).toHaveLength(1);
    await waitFor('the ops notice', () => opsPosts(stack, REVOKED_TITLE) >= 1);
    expect(opsPosts(stack, REVOKED_TITLE)).toBe(1);
    expect((await app.ctx.notices.list()).map((n) => n.key)).toContain('access-revoked');
    expect(sandbox.stats.requests.slice(from).filter((r) => r.at >= injectedAt)).toHaveLength(1);

    // The operator fixes the account upstream and resumes.
    sandbox.faults.clear();
    const resumed = await runShortwatch(['-c', stack.configPath, 'resume']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('marked ok');
    await waitFor(
      'the changes made while stopped',
      async () => (await loggedKeys(running)).length >= changes.length,
    );
    expect(await loggedKeys(app)).toEqual(eventKeys(changes));
    await waitFor('the resolved notice', () => opsPosts(stack, `Resolved: ${REVOKED_TITLE}`) === 1);
    expect((await app.ctx.notices.list()).map((n) => n.key)).not.toContain('access-revoked');
    expect((await statusJson(stack)).upstream.access).toBe('ok');
    expect(opsPosts(stack, REVOKED_TITLE)).toBe(2);
  });

  it('a wrong key from the start: one request and a stopped state until the config is fixed and reloaded (SIGHUP)', {
    timeout: 80_000,
  }, async () => {
    const stack = await startStack({ issuers: 3, seed: 32, config: { poll: { gateInterval: '250ms' } } });
    current.stack = stack;
    const { sandbox } = stack;
    stack.writeConfig({
      ...stack.configObject,
      upstream: { baseUrl: sandbox.url, apiKey: 'wrong-key', timeout: '2s', retries: 1 },
    });
    // Reads Redis for the test; never started, it sends nothing.
    const reader = await stack.openApp();
    current.app = reader;
    // Its first sweeps come at start-up: not at a minute's end, where the budget would send them together.
    await awayFromWindowEnd(60_000, 12_000);
    current.daemons.push(await spawnDaemon(stack, 'start'));

    await waitFor('the 401', () => sandbox.stats.count({ status: 401 }) === 1);
    await waitFor('a dozen held-back sweeps', async () => (await revokedSweeps(reader)) >= 12, 30_000);
    expect(sandbox.stats.requests.map((r) => [r.operation, r.status, r.key])).toEqual([
      ['issuers', 401, 'wrong-key'],
    ]);
    const status = await statusJson(stack);
    expect(status.upstream.access).toBe('unauthorized');
    expect(status.notices.map((n) => n.key)).toContain('access-revoked');

    stack.writeConfig(stack.configObject);
    current.daemons[0]?.kill('SIGHUP');
    const ids = sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await waitFor(
      'baseline snapshots with the fixed key',
      async () => (await reader.ctx.snapshots.getMany(ids)).size === ids.length,
    );
    expect(sandbox.stats.count({ status: 401 })).toBe(1);
    expect(sandbox.stats.count({ key: 'wrong-key' })).toBe(1);
    expect((await statusJson(stack)).upstream.access).toBe('ok');
  });
});
