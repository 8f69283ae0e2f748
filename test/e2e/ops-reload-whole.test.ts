import { describe, expect, it } from 'vitest';
import { isConfigError } from '../../src/config/config-error.js';
import { loadConfig } from '../../src/config/load.js';
import {
  addChannel,
  freePort,
  patchChannel,
  runShortwatch,
  slackIssuers,
  startStack,
  updateConfig,
  usePerTest,
  waitFor,
} from './harness.js';

/**
 * A reload applies the whole new config or none of it: the budget takes the new caps with the plan, and
 * a channel removed from the config leaves its queued work parked, listed and retrievable, not stranded.
 */
describe('config reload: whole or nothing', () => {
  const current = usePerTest();

  it('new budget caps reach the budget, not just the plan', async () => {
    const stack = await startStack({ issuers: 2, seed: 81, channels: ['slack'] });
    current.stack = stack;
    const app = await stack.openApp();
    current.app = app;
    expect((await app.ctx.budget.usage()).minute.cap).toBe(6_000);
    updateConfig(stack, (config) => ({
      ...config,
      budget: { perMinute: 40, perDay: 900, reserve: 5 },
    }));
    await app.reload(loadConfig(stack.configPath), { workerOnly: false });
    const usage = await app.ctx.budget.usage();
    expect([usage.minute.cap, usage.day.cap, usage.reserve]).toEqual([40, 900, 5]);
    expect(app.settings.plan.requestsPerDay).toBeLessThanOrEqual(900);
  }, 30_000);

  it('a reload refuses what check refuses: a misspelt filter issuer or a non-URL Slack URL, the old config kept', async () => {
    const stack = await startStack({ issuers: 2, seed: 83, channels: ['slack'] });
    current.stack = stack;
    const app = await stack.openApp();
    current.app = app;
    const ids = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await app.startDaemon({ workerOnly: false });
    await waitFor('baseline', async () => (await app.ctx.snapshots.getMany(ids)).size === ids.length);
    const [first] = stack.sandbox.scenario.issuers();
    if (!first) throw new Error('the scenario has no issuer');
    const before = app.settings.config;
    const misspelt = `${first.name}x`;
    const refused = async (path: string) => {
      const error = await app.reload(loadConfig(stack.configPath), { workerOnly: false }).catch((e) => e);
      expect(isConfigError(error) ? error.issues.map((i) => i.path) : error).toEqual([path]);
      expect(app.settings.config).toBe(before);
      return isConfigError(error) ? (error.issues[0]?.message ?? '') : '';
    };
    patchChannel(stack, 'desk', { filter: { issuers: [misspelt] } });
    expect(await refused('channels[0].filter.issuers[0]')).toContain(
      `closest: ${first.name} (${first.svc_issuer_id})`,
    );
    patchChannel(stack, 'desk', { filter: {}, webhookUrl: 'not a url' });
    expect(await refused('channels[0].webhookUrl')).toBe('is not a URL');
  }, 60_000);

  it('a removed channel: its queued work is parked, listed, told once, and sent when the channel returns', async () => {
    const stack = await startStack({ issuers: 3, seed: 82, channels: ['slack', 'ops'] });
    current.stack = stack;
    // A channel whose receiver is down: its messages wait in the outbox, retrying.
    const deadPort = await freePort();
    const down = {
      name: 'late',
      kind: 'slack',
      webhookUrl: `http://127.0.0.1:${deadPort}/late`,
      backoff: '5s',
    };
    addChannel(stack, down);
    const app = await stack.openApp();
    current.app = app;
    const ids = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await app.startDaemon({ workerOnly: false });
    await waitFor('baseline', async () => (await app.ctx.snapshots.getMany(ids)).size === ids.length);
    for (const [n, id] of ids.entries()) stack.sandbox.scenario.disclose(id, `Reload Park Capital ${n}`, 0.8);
    await waitFor('every change on the desk', () =>
      ids.every((id) => stack.slack.delivered().some((p) => slackIssuers(p.payload).includes(id))),
    );
    await waitFor('the late channel holding work', async () => {
      const depth = await app.ctx.outbox.depth('late', Date.now());
      return depth.inflight + depth.waiting >= 1;
    });

    updateConfig(stack, (config) => ({
      ...config,
      channels: (config.channels as Array<{ name: string }>).filter((c) => c.name !== 'late'),
    }));
    await app.reload(loadConfig(stack.configPath), { workerOnly: false });
    const parked = await app.ctx.outbox.parked('late');
    expect(parked.length).toBeGreaterThanOrEqual(1);
    expect(parked.every((p) => p.lastError === 'the channel was removed from the config')).toBe(true);
    const depth = await app.ctx.outbox.depth('late', Number.MAX_SAFE_INTEGER);
    expect(depth.inflight + depth.waiting).toBe(0);
    expect(parked.flatMap((p) => p.eventIds)).toHaveLength(ids.length);
    const notice = (await app.ctx.notices.list()).find((n) => n.key === 'channel-removed-late');
    expect(notice?.text).toContain(`${parked.length} messages for late are parked`);

    const listed = await runShortwatch(['deliveries', '--failed', '-c', stack.configPath]);
    expect(listed.code).toBe(0);
    for (const p of parked) expect(listed.stdout).toMatch(new RegExp(`^late +${p.deliveryId} +parked `, 'm'));
    const refused = await runShortwatch([
      'deliveries',
      'retry',
      '--all',
      '--channel',
      'late',
      '-c',
      stack.configPath,
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('no longer in the config');

    // The channel comes back, now reachable: the parked messages go out on retry, once.
    addChannel(stack, { ...down, webhookUrl: `${stack.slack.url}/late` });
    await app.reload(loadConfig(stack.configPath), { workerOnly: false });
    const retried = await runShortwatch([
      'deliveries',
      'retry',
      '--all',
      '--channel',
      'late',
      '-c',
      stack.configPath,
    ]);
    expect(retried.stdout).toContain(`${parked.length} deliveries queued again`);
    const onLate = () =>
      stack.slack
        .delivered()
        .filter((p) => p.path.endsWith('/late'))
        .flatMap((p) => slackIssuers(p.payload))
        .sort();
    await waitFor('the parked messages delivered', () => onLate().length === ids.length);
    expect(onLate()).toEqual([...ids].sort());
    await waitFor('the notice resolved', async () =>
      (await app.ctx.notices.list()).every((n) => n.key !== 'channel-removed-late'),
    );
  }, 60_000);
});
