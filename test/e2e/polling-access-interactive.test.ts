import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { App } from '../../src/app.js';
import { accessFingerprint } from '../../src/budget/access-state.js';
import {
  runShortwatch,
  type Stack,
  type StackOptions,
  spawnDaemon,
  startStack,
  usePerTest,
  waitFor,
} from './harness.js';

// polling-access.test.ts covers the daemon's own 401 (one request, one notice, `resume`, a fixed key by
// SIGHUP). These are the commands people run beside it: `check`, `issuers`, `positions`.

const REVOKED_TITLE = 'Upstream access revoked';

async function statusJson(stack: Stack): Promise<{
  upstream: { access: string };
  notices: Array<{ key: string }>;
}> {
  const result = await runShortwatch(['-c', stack.configPath, 'status', '--json']);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

async function noticeKeys(app: App): Promise<string[]> {
  return (await app.ctx.notices.list()).map((n) => n.key);
}

function opsPosts(stack: Stack, text: string): number {
  return stack.slack
    .delivered()
    .filter((post) => post.path.endsWith('/ops') && JSON.stringify(post.payload).includes(text)).length;
}

describe('polling: a 401 seen by an interactive command', () => {
  const current = usePerTest();

  /** A stack with a running `start` daemon that has baselined every issuer; `reader` reads its Redis. */
  async function runningDaemon(options: StackOptions): Promise<{ stack: Stack; reader: App; ids: string[] }> {
    const stack = await startStack({ issuers: 3, channels: ['slack', 'ops'], ...options });
    current.stack = stack;
    const reader = await stack.openApp();
    current.app = reader;
    current.daemons.push(await spawnDaemon(stack, 'start'));
    const ids = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    const app = reader;
    await waitFor('baseline', async () => (await app.ctx.snapshots.getMany(ids)).size === ids.length);
    return { stack, reader, ids };
  }

  /** Waits until the daemon has beaten (its 10-second heartbeat, which takes refusals to check) after now. */
  async function nextBeat(s: Stack): Promise<void> {
    const after = Date.now();
    await waitFor(
      'a daemon heartbeat',
      async () => {
        const records = Object.values(await s.redis.redis.hgetall(s.keys.workers));
        return records.some((raw) => Date.parse(JSON.parse(raw).seenAt) > after);
      },
      20_000,
    );
  }

  it("another key (a colleague's `check` and `issuers`): refused, and the daemon's access, notices and polling stay as they were", {
    timeout: 60_000,
  }, async () => {
    const { stack: s, reader: app } = await runningDaemon({ seed: 34 });
    const wrong = join(s.configPath, '..', 'colleague.yaml');
    const upstream = { ...(s.configObject.upstream as object), apiKey: 'wrong-key' };
    writeFileSync(wrong, stringify({ ...s.configObject, upstream }));

    const [check, issuers] = await Promise.all([
      runShortwatch(['-c', wrong, 'check']),
      runShortwatch(['-c', wrong, 'issuers']),
    ]);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/^FAIL {2}upstream .*401/m);
    expect(issuers.code).toBe(1);
    expect(s.sandbox.stats.count({ key: 'wrong-key', status: 401 })).toBe(2);

    await nextBeat(s);
    expect(await app.ctx.access.get()).toEqual({ state: 'ok' });
    expect(await noticeKeys(app)).not.toContain('access-revoked');
    const status = await statusJson(s);
    expect(status.upstream.access).toBe('ok');
    expect(status.notices.map((n) => n.key)).not.toContain('access-revoked');
    // The daemon still polls: a change made now is detected.
    const changes = s.sandbox.scenario.step();
    expect(changes.length).toBeGreaterThan(0);
    await waitFor(
      'the change detected',
      async () => (await app.ctx.eventLog.recent({ limit: 100 })).length > 0,
    );
    expect(opsPosts(s, REVOKED_TITLE)).toBe(0);
    expect(s.sandbox.stats.count({ key: 'sandbox-key', status: 401 })).toBe(0);
  });

  it("the daemon's key refused once: the daemon's own request is answered, so nothing stops", {
    timeout: 60_000,
  }, async () => {
    // One sweep at start, the next an hour later: every GET /issuers after the baseline is the check.
    const {
      stack: s,
      reader: app,
      ids,
    } = await runningDaemon({
      seed: 35,
      config: { poll: { gateInterval: '1h' } },
    });
    const [issuer] = ids;
    if (!issuer) throw new Error('no issuer');
    const listed = s.sandbox.stats.count({ operation: 'issuers' });
    s.sandbox.faults.inject({ operation: 'positions', issuerId: issuer, status: 401 });

    const refused = await runShortwatch(['-c', s.configPath, 'positions', issuer]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('401');
    await waitFor("the daemon's own request", () => s.sandbox.stats.count({ operation: 'issuers' }) > listed);
    expect(s.sandbox.stats.requests.filter((r) => r.operation === 'issuers').slice(listed)).toMatchObject([
      { key: 'sandbox-key', status: 200 },
    ]);
    await waitFor('the request taken', async () => (await s.redis.redis.exists(s.keys.accessConfirm)) === 0);
    expect(await app.ctx.access.get()).toEqual({ state: 'ok' });
    expect(await noticeKeys(app)).not.toContain('access-revoked');
    expect(s.sandbox.stats.count({ status: 401 })).toBe(1);
  });

  it("the daemon's key refused for good: access stops only when the daemon's own request is refused too", {
    timeout: 60_000,
  }, async () => {
    const { stack: s, reader: app } = await runningDaemon({
      seed: 36,
      config: { poll: { gateInterval: '1h' } },
    });
    const from = s.sandbox.stats.requests.length;
    s.sandbox.faults.inject({ status: 401, times: Number.POSITIVE_INFINITY });

    const refused = await runShortwatch(['-c', s.configPath, 'issuers']);
    expect(refused.code).toBe(1);
    await waitFor('access revoked', async () => (await app.ctx.access.get()).state === 'unauthorized');
    // The command's 401, then the daemon's: the revocation is the daemon's, bound to its key.
    expect(s.sandbox.stats.requests.slice(from).map((r) => [r.operation, r.status, r.key])).toEqual([
      ['issuers', 401, 'sandbox-key'],
      ['issuers', 401, 'sandbox-key'],
    ]);
    expect(await app.ctx.access.get()).toMatchObject({
      fingerprint: accessFingerprint(s.sandbox.url, 'sandbox-key'),
    });
    await waitFor('the ops notice', () => opsPosts(s, REVOKED_TITLE) === 1);
    expect((await statusJson(s)).upstream.access).toBe('unauthorized');
  });

  it('a stop bound to another key, with its notice (what a refused CLI left before): the daemon clears both', {
    timeout: 60_000,
  }, async () => {
    const { stack: s, reader: app } = await runningDaemon({ seed: 37 });
    await app.ctx.access.revoke(
      'unauthorized',
      'Invalid or missing API key.',
      accessFingerprint(s.sandbox.url, 'wrong-key'),
    );
    await app.ctx.notices.raise(
      'access-revoked',
      'critical',
      'Upstream access revoked: polling stopped',
      'The upstream rejected the API key (401).',
    );

    await waitFor('the notice cleared', async () => !(await noticeKeys(app)).includes('access-revoked'));
    const status = await statusJson(s);
    expect(status.upstream.access).toBe('ok');
    expect(status.notices.map((n) => n.key)).not.toContain('access-revoked');
    await waitFor('the resolved notice', () => opsPosts(s, `Resolved: ${REVOKED_TITLE}`) === 1);
  });
});
