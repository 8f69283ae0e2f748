import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import {
  type DaemonProcess,
  patchChannel,
  type Stack,
  spawnShortwatch,
  startStack,
  waitFor,
} from './harness.js';

const DIGEST = 'morning';

/*
 * A SIGKILL after a digest run sealed its period and before the digest went out. Sealing is one atomic
 * step (the staged events become one batch in the channel's outbox), so a kill lands before it (the
 * events stay staged) or after it (the batch waits in the outbox); either way the next process sends
 * them once. What no receiver can make exactly-once is a kill while the digest email is on the wire
 * (the server has it, the send is not yet recorded): that message is sent again, under the same
 * Message-ID. Here the digest channel's rate holds the sealed batch in its outbox, so the kill hits a
 * sealed batch and never an email in flight.
 */
describe('digests: SIGKILL between sealing a period and sending it', () => {
  let stack: Stack;
  let observer: App | undefined;
  const daemons: DaemonProcess[] = [];

  afterEach(async () => {
    for (const daemon of daemons.splice(0)) {
      daemon.kill('SIGKILL');
      await daemon.exited;
    }
    await observer?.stop(2_000);
    observer = undefined;
    await stack.cleanup();
  });

  it('sends the sealed events in exactly one digest after a restart', async () => {
    stack = await startStack({ issuers: 6, seed: 5, channels: ['digest'] });
    // An empty digest goes out at once and uses the channel's one send per 10 s, and the empty periods
    // sealed since queue ahead of the one with the events: nothing with them is on the wire when the
    // daemon dies. (The next send time the killed daemon stored stays in force after the restart, so
    // the interval is kept short.)
    patchChannel(stack, DIGEST, { schedule: '*/2 * * * * *', sendEmpty: true, ratePerSecond: 0.1 });
    observer = await stack.openApp();
    const app = observer;
    const box = stack.keys.outbox(DIGEST);
    const issuers = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    daemons.push(spawnShortwatch(['start', '-c', stack.configPath]));
    await waitFor(
      'baseline snapshots',
      async () => (await app.ctx.snapshots.getMany(issuers)).size === issuers.length,
      30_000,
    );
    await waitFor('an empty digest sent', () => stack.smtp.mails.length === 1, 30_000);

    // One issuer, so one poll stages all three at once and no digest period can split them.
    const issuerId = issuers[0] ?? '';
    const holders = [1, 2, 3].map((n) => {
      const holder = `Digest Crash Partners ${n} LLP`;
      stack.sandbox.scenario.disclose(issuerId, holder, 0.6 + n / 10);
      return holder;
    });
    // Kill the moment a digest run has sealed the staged events into a batch in the outbox.
    const sealedBatch = async () => {
      const { items } = await app.ctx.outbox.ready(DIGEST, Date.now(), 1_000);
      for (const item of items) {
        if (item.kind !== 'digest') continue;
        const events = await app.ctx.outbox.digestEvents(DIGEST, item.batchId);
        if (events.length > 0) return { batchId: item.batchId, events };
      }
      return undefined;
    };
    const sealed = await waitFor('a digest run sealed the events', sealedBatch, 30_000, 5);
    if (!sealed) throw new Error('no sealed batch');
    const first = daemons[0];
    first?.kill('SIGKILL');
    expect(await first?.exited).toBe('SIGKILL');
    expect(sealed.events.map((e) => e.holder).sort()).toEqual(holders);
    expect(await app.ctx.outbox.stagedCount(DIGEST)).toBe(0);
    const mentions = (holder: string) =>
      stack.smtp.mails.filter((m) => (m.parsed.text ?? '').includes(holder)).length;
    expect(holders.map(mentions)).toEqual([0, 0, 0]);
    // The batch waits in the outbox, not in flight: the kill met nothing on the wire.
    expect((await app.ctx.outbox.inflight(DIGEST))?.deliveryId).not.toBe(sealed.batchId);
    expect(await app.redis.zscore(box.pending, sealed.batchId)).not.toBeNull();

    patchChannel(stack, DIGEST, { sendEmpty: false, ratePerSecond: 50 });
    daemons.push(spawnShortwatch(['start', '-c', stack.configPath]));
    await waitFor('the digest with the events', () => holders.every((h) => mentions(h) > 0), 30_000);
    // Two more digest periods close, for any second copy to show.
    const closedAt = () => app.redis.hget(box.digestMeta, 'lastDigestAt');
    for (let period = 0; period < 2; period++) {
      const before = await closedAt();
      await waitFor('another digest period', async () => (await closedAt()) !== before, 30_000);
    }

    expect(holders.map(mentions)).toEqual([1, 1, 1]);
    const withEvents = stack.smtp.mails.filter((m) => holders.some((h) => (m.parsed.text ?? '').includes(h)));
    expect(withEvents).toHaveLength(1);
    expect(withEvents[0]?.parsed.subject).toMatch(/^Short positions digest: 3 changes/);
    // Sent under the batch's own id, the one a resend would carry too.
    expect(withEvents[0]?.parsed.messageId).toBe(`<${sealed.batchId}@example.test>`);
    expect(await app.redis.exists(box.digestBatch(sealed.batchId))).toBe(0);
    expect(await app.ctx.outbox.stagedCount(DIGEST)).toBe(0);
    await waitFor('the outbox drained', async () => {
      const depth = await app.ctx.outbox.depth(DIGEST, Date.now());
      return depth.waiting + depth.inflight + depth.parked === 0;
    });
  }, 60_000);
});
