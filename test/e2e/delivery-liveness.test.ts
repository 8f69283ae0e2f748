import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { App } from '../../src/app.js';
import { parseConfig } from '../../src/config/load.js';
import { type FreezingProxy, startFreezingProxy } from '../helpers/freezing-proxy.js';
import { captureLog, type LogCapture } from '../helpers/log-capture.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import { slackEvents, startStack, updateConfig, usePerTest, waitFor } from './harness.js';

/*
 * The deliverers are no BullMQ workers: they read the outboxes over a connection of their own and are
 * woken through a pub/sub subscriber. Here one of those connections is stuck on purpose: the daemon reaches
 * Redis through a proxy that stops forwarding that connection's bytes while keeping it open (a half-open
 * connection after a failover looks the same: no error, no answer). The delivery liveness finds it and
 * the process asks to exit 1, raising the `process-stuck` notice: its supervisor restarts it (a rebuild
 * in place dropped the memory of what the old path had sent, issue 29).
 */
describe('a stuck delivery path', () => {
  const current = usePerTest();

  const run = async (): Promise<{ app: App; proxy: FreezingProxy; log: LogCapture; dead: string[] }> => {
    const target = new URL(TEST_REDIS_URL);
    const proxy = await startFreezingProxy(Number(target.port || 6379), target.hostname);
    const stack = await startStack({ issuers: 4, seed: 17, channels: ['slack'] });
    current.stack = stack;
    // Another daemon of the deployment probes its own delivery path on the same topic, more often than
    // this one: its probes must not count for this process, nor hide this process's own.
    let probes = 0;
    const otherDaemon = setInterval(() => {
      void stack.redis.redis.publish(stack.keys.outboxWake, `probe:other-host-1:${++probes}`);
    }, 50);
    const cleanup = stack.cleanup;
    stack.cleanup = async () => {
      clearInterval(otherDaemon);
      await cleanup();
      await proxy.close();
    };
    updateConfig(stack, (config) => ({
      ...config,
      redis: {
        url: `redis://127.0.0.1:${proxy.port}`,
        prefix: stack.prefix,
        liveness: { interval: '200ms', timeout: '1500ms' },
      },
    }));
    const log = captureLog([], 'info');
    const config = parseConfig(stringify(stack.configObject), stack.configPath);
    const app = await App.open(config, { logger: log.logger, consoleOut: new PassThrough() });
    current.app = app;
    const dead: string[] = [];
    app.onWorkersDead((reason) => dead.push(reason));
    await app.startDaemon({ workerOnly: false });
    const ids = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await waitFor(
      'baseline snapshots',
      async () => (await app.ctx.snapshots.getMany(ids)).size === ids.length,
    );
    await waitFor('the delivery path proven alive', () => app.deliveryLiveness?.state === 'alive');
    return { app, proxy, log, dead };
  };

  it.each([
    ["the deliverers' outbox connection", ':deliver'],
    ['the wake-up subscriber', ':wake'],
  ])(
    'asks the process to exit, with a notice, when %s stops answering (no rebuild in place)',
    async (_, connection) => {
      const { app, proxy, log, dead } = await run();
      expect(proxy.freeze(connection)).toBe(1);
      await waitFor('the process told to exit', () => dead.length === 1, 20_000);
      expect(dead[0]).toMatch(/^no delivery probe came through for \d+ s while Redis answers$/);
      expect(app.deliveryLiveness).toMatchObject({ state: 'stuck' });
      expect(
        log.withMessage('the delivery path is stuck: exiting for the supervisor to restart the process'),
      ).toHaveLength(1);
      const notice = (await app.ctx.notices.list()).find((n) => n.key === 'process-stuck');
      expect(notice?.severity).toBe('critical');
      expect(notice?.text).toContain('no delivery probe came through');
      expect(notice?.text).toContain('exits 1 for its supervisor to restart it');
    },
    60_000,
  );

  it('leaves a poll worker whose blocking connection stops answering to BullMQ, and the change is polled', async () => {
    // BullMQ 6.7 races each worker's blocking fetch against a watchdog (its block timeout + 1 s) and
    // rebuilds a blocking connection that never answered; the worker liveness (the probe job) covers the
    // connection the workers share. This pins what the daemon relies on for the poll worker's own one.
    const { app, proxy, dead } = await run();
    const stack = current.stack;
    if (!stack) throw new Error('no stack');
    // The poll worker's blocking connection names itself `<bull prefix>:<base64 of "poll">`.
    expect(proxy.freeze(Buffer.from('poll').toString('base64'))).toBeGreaterThanOrEqual(1);
    const expected = stack.sandbox.scenario.step().map((c) => `${c.issuerId}|${c.holderKey}|${c.kind}`);
    await waitFor(
      'every change polled and delivered',
      () => stack.slack.delivered().flatMap((p) => slackEvents(p.payload)).length >= expected.length,
      30_000,
    );
    expect(
      stack.slack
        .delivered()
        .flatMap((p) => slackEvents(p.payload))
        .sort(),
    ).toEqual([...expected].sort());
    expect(dead).toEqual([]);
    expect(app.liveness?.state).not.toBe('stuck');
  }, 60_000);
});
