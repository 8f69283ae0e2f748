import { afterEach, describe, expect, it } from 'vitest';
import { type SlackCapture, startSlackCapture } from '../../src/demo/slack-capture.js';
import { type FreezingProxy, startFreezingProxy } from '../helpers/freezing-proxy.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import {
  type DaemonProcess,
  type Stack,
  spawnDaemon,
  startStack,
  stopDaemons,
  updateConfig,
  waitFor,
} from './harness.js';

/*
 * Issue 29's frozen connections, as `shortwatch start` meets them: every connection to Redis stops
 * carrying bytes while staying open (half-open, after a failover), and the ones opened later too, for
 * 5 s. The liveness watchdog finds the process stuck and it must exit 1 for its supervisor to restart
 * it. Seen in the 20-round chaos run: the process said it was exiting and ran on for ever, stuck, with
 * nothing to restart it: frozen as it started, its start never ended and nothing listened for the
 * watchdog yet; and its stop waits on those very connections (a beat's duty, BullMQ's close), now bounded.
 */
describe('a process whose every Redis connection freezes', () => {
  let stack: Stack | undefined;
  let proxy: FreezingProxy | undefined;
  let daemon: DaemonProcess | undefined;
  let slack: SlackCapture | undefined;

  afterEach(async () => {
    await slack?.close();
    proxy?.forgetFreezes();
    if (daemon) await stopDaemons([daemon], 2_000);
    await stack?.cleanup();
    await proxy?.close();
  });

  it.each([
    ['as it starts (right after it registered)', false],
    ['once running (every issuer baselined)', true],
  ])(
    'exits 1 on its own, for its supervisor to restart it: frozen %s',
    async (_, baselined) => {
      const target = new URL(TEST_REDIS_URL);
      proxy = await startFreezingProxy(Number(target.port || 6379), target.hostname);
      const started = await startStack({ issuers: 2, seed: 29, channels: ['slack'] });
      stack = started;
      updateConfig(started, (config) => ({
        ...config,
        redis: {
          url: `redis://127.0.0.1:${proxy?.port}`,
          prefix: started.prefix,
          liveness: { interval: '500ms', timeout: '2s' },
        },
      }));
      daemon = await spawnDaemon(started, 'start', {}, 60_000);
      if (baselined) {
        const ids = started.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
        await waitFor('baselines', async () => {
          const found = await Promise.all(
            ids.map((id) => started.redis.redis.exists(started.keys.snapshot(id))),
          );
          return found.every((n) => n === 1);
        });
      }
      // Frozen for 5 s (the fault's length, as the chaos rounds' 15 s), new connections too; then new ones
      // pass, and the old ones stay frozen: Redis answers, this process's connections do not.
      proxy.freeze('', { future: true });
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      proxy.forgetFreezes();
      const code = await Promise.race([
        daemon.exited,
        new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 60_000)),
      ]);
      expect(code, daemon.stderr().slice(-2_000)).toBe(1);
      expect(daemon.stderr()).toContain('exiting for the supervisor to restart the process');
    },
    120_000,
  );

  it('records, before it exits, the message Slack accepted while its connections were frozen', async () => {
    const target = new URL(TEST_REDIS_URL);
    const frozen = await startFreezingProxy(Number(target.port || 6379), target.hostname);
    proxy = frozen;
    let struck: Promise<void> | undefined;
    // Slack takes 2 s to accept: the freeze lands between the post and the record of its send.
    const capture = await startSlackCapture({
      replyTo: () => {
        struck ??= (async () => {
          frozen.freeze('', { future: true });
          await new Promise((resolve) => setTimeout(resolve, 5_000));
          frozen.forgetFreezes();
        })();
        return { status: 200, body: 'ok', delayMs: 2_000 };
      },
    });
    slack = capture;
    const started = await startStack({ issuers: 3, seed: 29, channels: [] });
    stack = started;
    updateConfig(started, (config) => ({
      ...config,
      redis: {
        url: `redis://127.0.0.1:${frozen.port}`,
        prefix: started.prefix,
        liveness: { interval: '500ms', timeout: '2s' },
      },
      channels: [{ name: 'desk', kind: 'slack', webhookUrl: capture.url, backoff: '200ms', attempts: 10 }],
    }));
    const running = await spawnDaemon(started, 'start', {}, 60_000);
    daemon = running;
    const ids = started.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await waitFor('baselines', async () => {
      const found = await Promise.all(ids.map((id) => started.redis.redis.exists(started.keys.snapshot(id))));
      return found.every((n) => n === 1);
    });
    started.sandbox.scenario.step();
    await waitFor('the first post received', () => struck !== undefined, 60_000);
    const code = await Promise.race([
      running.exited,
      new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 90_000)),
    ]);
    expect(code, running.stderr().slice(-2_000)).toBe(1);
    // Nothing left in flight for the next lease holder to send again after the grace: the exiting process
    // recorded its send over a new connection.
    const accepted = capture.posts.filter((p) => p.status === 200).length;
    expect(accepted).toBeGreaterThan(0);
    const inflight = await started.redis.redis.exists(started.keys.outbox('desk').inflight);
    expect(inflight, running.stderr().slice(-3_000)).toBe(0);
  }, 180_000);
});
