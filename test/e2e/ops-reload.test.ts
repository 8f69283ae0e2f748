import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import {
  addChannel,
  type DaemonProcess,
  logLines,
  type Stack,
  slackIssuers,
  spawnShortwatch,
  startStack,
  stopDaemons,
  updateConfig,
  waitFor,
  waitForLog,
} from './harness.js';

describe('config reload without a restart', () => {
  let stack: Stack;
  let app: App | undefined;
  const daemons: DaemonProcess[] = [];

  afterEach(async () => {
    await stopDaemons(daemons.splice(0));
    await app?.stop(2_000);
    app = undefined;
    await stack.cleanup();
  });

  /** The issuers the Slack messages delivered to one channel spoke of, sorted (a coalesced post counts each). */
  function postedTo(channel: 'desk' | 'second'): string[] {
    return stack.slack
      .delivered()
      .filter((p) => (channel === 'second') === p.path.endsWith('/second'))
      .flatMap((p) => slackIssuers(p.payload))
      .sort();
  }

  /** Starts `shortwatch start` on the stack and waits until it runs (its signal handlers are then in place). */
  async function startDaemon(extra: string[] = []): Promise<DaemonProcess> {
    const daemon = spawnShortwatch(['-c', stack.configPath, 'start', ...extra]);
    daemons.push(daemon);
    await waitForLog(daemon, 'shortwatch running', 30_000);
    return daemon;
  }

  async function setUp(seed: number): Promise<string[]> {
    stack = await startStack({ issuers: 4, seed, channels: ['slack'] });
    const ids = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    updateConfig(stack, (config) => ({
      ...config,
      watchlist: ids.slice(0, 3).map((id) => ({ id })),
      log: { level: 'info', format: 'json' },
    }));
    app = await stack.openApp();
    return ids;
  }

  it('SIGHUP adds an issuer and a channel; an invalid file is rejected and the old config keeps running', async () => {
    const ids = await setUp(51);
    const [a, b, c, added] = ids;
    if (!a || !b || !c || !added) throw new Error('scenario too small');
    const daemon = await startDaemon();
    await waitFor(
      'baseline of the three watched',
      async () => (await app?.ctx.snapshots.getMany([a, b, c]))?.size === 3,
    );
    expect(await app?.ctx.snapshots.get(added)).toBeNull();

    updateConfig(stack, (config) => ({ ...config, watchlist: ids.map((id) => ({ id })) }));
    addChannel(stack, { name: 'second', kind: 'slack', webhookUrl: `${stack.slack.url}/second` });
    let mark = logLines(daemon.stderr()).length;
    daemon.kill('SIGHUP');
    const reloaded = await waitForLog(daemon, 'config reloaded', 20_000, mark);
    expect(reloaded).toMatchObject({ why: 'SIGHUP', watched: 4, channels: 2 });
    await waitFor('the new issuer polled', async () => (await app?.ctx.snapshots.get(added)) != null);

    const { scenario } = stack.sandbox;
    scenario.disclose(added, 'Reload Test Capital', 0.8);
    scenario.disclose(a, 'Reload Test Capital', 0.9);
    await waitFor(
      'both issuers on both channels',
      () => postedTo('desk').length === 2 && postedTo('second').length === 2,
    );
    expect(postedTo('second')).toEqual([a, added].sort());
    expect(postedTo('desk')).toEqual([a, added].sort());

    // A misspelt key: rejected with its key path in the log; the running config stays.
    const good = structuredClone(stack.configObject);
    const poll = typeof good.poll === 'object' && good.poll !== null ? good.poll : {};
    stack.writeConfig({ ...good, poll: { ...poll, gateIntervall: '1s' } });
    mark = logLines(daemon.stderr()).length;
    daemon.kill('SIGHUP');
    const rejected = await waitForLog(
      daemon,
      'config reload rejected; the old config keeps running',
      20_000,
      mark,
    );
    expect(rejected.level).toBe(50);
    expect(rejected.error).toEqual(expect.stringContaining('poll.gateIntervall: unknown key'));

    scenario.disclose(b, 'After Rejection LLP', 1.1);
    await waitFor(
      'deliveries continue on both channels',
      () => postedTo('desk').length === 3 && postedTo('second').length === 3,
    );
    expect(postedTo('second')).toEqual([a, added, b].sort());
    expect(daemon.child.exitCode).toBeNull();
  }, 60_000);

  it('--watch-config reloads when the file changes', async () => {
    const ids = await setUp(53);
    const [a] = ids;
    if (!a) throw new Error('scenario too small');
    const daemon = await startDaemon(['--watch-config']);
    await waitFor('baseline', async () => (await app?.ctx.snapshots.getMany(ids.slice(0, 3)))?.size === 3);

    const mark = logLines(daemon.stderr()).length;
    addChannel(stack, { name: 'second', kind: 'slack', webhookUrl: `${stack.slack.url}/second` });
    const reloaded = await waitForLog(daemon, 'config reloaded', 20_000, mark);
    expect(reloaded).toMatchObject({ why: 'file changed', channels: 2 });

    stack.sandbox.scenario.disclose(a, 'Watched File Partners', 0.75);
    // Each channel delivers on its own: wait for both (the old one may post after the new one).
    await waitFor(
      'both channels receive',
      () => postedTo('second').length === 1 && postedTo('desk').length === 1,
    );
    expect(postedTo('second')).toEqual([a]);
    expect(postedTo('desk')).toEqual([a]);
  }, 60_000);
});
