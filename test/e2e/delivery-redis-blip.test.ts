import { describe, expect, it } from 'vitest';
import { startSmtpCapture } from '../../src/demo/smtp-capture.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import { type DroppingProxy, startDroppingProxy } from '../helpers/tcp-proxy.js';
import { startStack, updateConfig, usePerTest, waitFor } from './harness.js';
import { repeated, settled } from './settled.js';

// Finding 6 of issue 20: Redis unreachable for a few seconds right after the SMTP server accepted a
// message made the deliverer's bookkeeping fail, and the message went out again when Redis came back,
// while the process lived and knew it had sent it. The daemon here reaches Redis through a proxy that the
// SMTP server cuts at the instant it accepts a message (before its reply reaches the daemon).

describe('a Redis outage right after a send, with the process alive', () => {
  const current = usePerTest();

  it('never sends an accepted message again (outages of 2 s and 5 s)', async () => {
    const target = new URL(TEST_REDIS_URL);
    const proxy: DroppingProxy = await startDroppingProxy(Number(target.port || 6379), target.hostname);
    const outages: number[] = [];
    let outageMs = 0;
    let cut: Promise<void> = Promise.resolve();
    const smtp = await startSmtpCapture({
      onMail: () => {
        if (outageMs === 0) return;
        outages.push(outageMs);
        cut = proxy.outage(outageMs);
        outageMs = 0;
      },
    });
    try {
      const stack = await startStack({ issuers: 4, seed: 11, channels: [] });
      current.stack = stack;
      updateConfig(stack, (config) => ({
        ...config,
        redis: { url: `redis://127.0.0.1:${proxy.port}`, prefix: stack.prefix },
        channels: [
          {
            name: 'alerts',
            kind: 'email',
            host: '127.0.0.1',
            port: smtp.port,
            secure: false,
            from: 'shortwatch@example.test',
            to: ['trader@example.test'],
            backoff: '200ms',
            attempts: 6,
          },
        ],
      }));
      const app = await stack.openApp();
      current.app = app;
      await app.startDaemon({ workerOnly: false });
      const issuers = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
      await waitFor(
        'baseline snapshots',
        async () => (await app.ctx.snapshots.getMany(issuers)).size === issuers.length,
      );
      let expected = 0;
      for (const ms of [2_000, 5_000]) {
        const changes = stack.sandbox.scenario.step();
        expected += new Set(changes.map((c) => c.issuerId)).size;
        outageMs = ms;
        await waitFor(`the outage of ${ms} ms`, () => outages.length > 0 && outageMs === 0, 60_000);
        await cut;
        await waitFor(`${expected} e-mails`, () => smtp.mails.length >= expected, 60_000);
        await waitFor(
          'the outbox drained',
          async () => (await app.ctx.outbox.depth('alerts', Date.now())).inflight === 0,
          30_000,
        );
      }
      // A repeat could only come from a message still pending or in flight: wait until none is.
      await settled(stack, { receivers: [() => smtp.mails.length] });
      expect(outages).toEqual([2_000, 5_000]);
      expect(repeated(smtp.mails.map((mail) => mail.parsed.messageId ?? '?'))).toEqual([]);
      expect(smtp.mails).toHaveLength(expected);
    } finally {
      await current.app?.stop(2_000);
      current.app = undefined;
      await Promise.all([smtp.close(), proxy.close()]);
    }
  }, 120_000);
});
