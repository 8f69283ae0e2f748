import type { Server } from 'node:http';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { App } from '../../src/app.js';
import { parseConfig } from '../../src/config/load.js';
import { createConsole } from '../../src/console/handler.js';
import { type SlackCapture, startSlackCapture } from '../../src/demo/slack-capture.js';
import { startHttpServer } from '../../src/ops/http-server.js';
import { captureLog, type LogCapture } from '../helpers/log-capture.js';
import {
  addChannel,
  httpGet,
  metricValue,
  parseMetrics,
  patchChannel,
  type Stack,
  startStack,
  updateConfig,
  waitFor,
} from './harness.js';

/*
 * A channel held back by its receiver, end to end on real Redis, the real deliverer and a local Slack
 * stand-in: a 429 asking for a year pauses the channel for `delivery.maxRetryAfter` only, and says so; a
 * receiver failing with 5xx past `delivery.stalledAfter` makes `/readyz` name the channel and raises the
 * stalled notice, which clears once the receiver takes the message.
 */
describe('a channel its receiver holds back', () => {
  let stack: Stack | undefined;
  let app: App | undefined;
  let server: Server | undefined;
  let desk: SlackCapture | undefined;

  afterEach(async () => {
    server?.close();
    await app?.stop(2_000);
    await desk?.close();
    await stack?.cleanup();
    server = undefined;
    app = undefined;
    desk = undefined;
    stack = undefined;
  });

  /** The stack with `desk` on its own stand-in (answering `reply`), an ops console channel, and a daemon. */
  const run = async (
    reply: () => { status: number; body?: string; headers?: Record<string, string> },
    delivery: Record<string, string>,
  ): Promise<{ app: App; log: LogCapture; base: string; changed: () => void }> => {
    const world = await startStack({ issuers: 4, seed: 5, channels: ['slack'] });
    stack = world;
    desk = await startSlackCapture({ replyTo: reply });
    patchChannel(world, 'desk', { webhookUrl: desk.url, backoff: '100ms', attempts: 30 });
    addChannel(world, { name: 'ops', kind: 'console' });
    updateConfig(world, (config) => ({ ...config, ops: { channel: 'ops' }, delivery }));
    const log = captureLog([], 'info');
    const config = parseConfig(stringify(world.configObject), world.configPath);
    const opened = await App.open(config, { logger: log.logger, consoleOut: new PassThrough() });
    app = opened;
    await opened.startDaemon({ workerOnly: false });
    const http = await startHttpServer(opened, 0, '127.0.0.1', createConsole(opened));
    server = http.server;
    const ids = world.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await waitFor(
      'baseline snapshots',
      async () => (await opened.ctx.snapshots.getMany(ids)).size === ids.length,
    );
    return {
      app: opened,
      log,
      base: `http://127.0.0.1:${http.port}`,
      changed: () => void world.sandbox.scenario.step(),
    };
  };

  const noticeKeys = async (running: App) => (await running.ctx.notices.list()).map((n) => n.key);

  it('pauses a channel answered Retry-After: 31536000 for the cap only, says so, then delivers', async () => {
    let limited = true;
    const {
      app: running,
      log,
      changed,
    } = await run(
      () => {
        if (!limited) return { status: 200, body: 'ok' };
        limited = false;
        return { status: 429, body: 'rate_limited', headers: { 'retry-after': '31536000' } };
      },
      { maxRetryAfter: '2s' },
    );
    changed();
    await waitFor('the 429', () => desk?.posts.length === 1);
    const notice = await waitFor('the capped notice', async () =>
      (await running.ctx.notices.list()).find((n) => n.key === 'channel-retry-after-capped-desk'),
    );
    if (!notice) throw new Error('no capped notice');
    expect(notice.text).toContain('Retry-After 31536000 s capped to 2s');
    expect(log.withMessage('desk: Retry-After 31536000 s capped to 2s')).toHaveLength(1);
    // Paused for the cap, not the year: the same message goes through, and the notice clears.
    const { pausedUntil } = await running.ctx.outbox.sendState('desk');
    const asked = desk?.posts[0]?.receivedAt.getTime() ?? 0;
    expect(pausedUntil - asked).toBeLessThan(60_000);
    await waitFor(
      'the message delivered after the pause',
      () => (desk?.delivered().length ?? 0) >= 1,
      15_000,
    );
    expect(desk?.delivered()[0]?.receivedAt.getTime()).toBeGreaterThanOrEqual(pausedUntil);
    await waitFor('the capped notice cleared', async () => !(await noticeKeys(running)).includes(notice.key));
  });

  it('makes /readyz name a channel stalled past delivery.stalledAfter, with a notice, until it delivers', async () => {
    let healthy = false;
    const {
      app: running,
      base,
      changed,
    } = await run(() => (healthy ? { status: 200, body: 'ok' } : { status: 500, body: 'rollup_error' }), {
      stalledAfter: '1s',
    });
    changed();
    const stalled = await waitFor('/readyz 503 naming desk', async () => {
      const ready = await httpGet(`${base}/readyz`);
      return ready.status === 503 && ready.body.includes('channel desk stalled') ? ready.body : undefined;
    });
    expect(JSON.parse(stalled ?? '{}').reasons).toContainEqual(
      expect.stringMatching(
        /^channel desk stalled: oldest undelivered message waiting \S+ \(delivery\.stalledAfter 1s\)$/,
      ),
    );
    await waitFor('the stalled notice', async () =>
      (await noticeKeys(running)).includes('channel-stalled-desk'),
    );
    const metrics = parseMetrics((await httpGet(`${base}/metrics`)).body).samples;
    expect(
      metricValue(metrics, 'shortwatch_channel_oldest_undelivered_seconds', { channel: 'desk' }),
    ).toBeGreaterThan(1);
    expect(metricValue(metrics, 'shortwatch_notice_active', { notice: 'channel-stalled-desk' })).toBe(1);

    healthy = true;
    await waitFor('the message delivered', () => (desk?.delivered().length ?? 0) >= 1, 15_000);
    await waitFor(
      'the stalled notice cleared',
      async () => !(await noticeKeys(running)).includes('channel-stalled-desk'),
    );
    const after = await httpGet(`${base}/readyz`);
    expect(after.body).not.toContain('channel desk stalled');
    const cleared = parseMetrics((await httpGet(`${base}/metrics`)).body).samples;
    expect(metricValue(cleared, 'shortwatch_channel_oldest_undelivered_seconds', { channel: 'desk' })).toBe(
      0,
    );
    expect(metricValue(cleared, 'shortwatch_notice_active', { notice: 'channel-stalled-desk' })).toBe(0);
  });
});
