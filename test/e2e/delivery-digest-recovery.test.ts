import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { composeNext } from '../../src/delivery/compose.js';
import { DRAIN_LEASE_MS } from '../../src/delivery/deliverer.js';
import { digestBatchId } from '../../src/state/delivery-ids.js';
import { Lease } from '../../src/state/lease.js';
import type { Inflight } from '../../src/state/outbox.js';
import {
  type DaemonProcess,
  patchChannel,
  type Stack,
  spawnShortwatch,
  startStack,
  waitFor,
} from './harness.js';

const DIGEST = 'morning';

/** The sealed digest periods waiting in the channel's outbox, with their events' holders. */
async function sealedBatches(app: App): Promise<Array<{ batchId: string; holders: string[] }>> {
  const { items } = await app.ctx.outbox.ready(DIGEST, Date.now(), 1_000);
  const batches = [];
  for (const item of items) {
    if (item.kind !== 'digest') continue;
    const events = await app.ctx.outbox.digestEvents(DIGEST, item.batchId);
    batches.push({ batchId: item.batchId, holders: events.map((e) => e.holder).sort() });
  }
  return batches;
}

/*
 * The two states a process killed after a digest seal leaves in Redis, made exactly: the sealed batch
 * waiting in the outbox, and that batch claimed by the deliverer (in flight) but not yet sent.
 * delivery-crash-digest.test.ts kills a real run; a kill there lands where the timing puts it, so each
 * state is built here on purpose, with the daemon dead, and a restart must send the batch once.
 */
describe('digests: a sealed period left by a dead process goes out once', () => {
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

  it.each([{ phase: 'sealed' }, { phase: 'sealed and in flight' }])(
    'a batch $phase before the kill goes out once; later events go in a later digest',
    async ({ phase }) => {
      stack = await startStack({ issuers: 4, seed: 3, channels: ['digest'] });
      // No digest run in the first life (its schedule is once a year): the batch is the test's to leave.
      patchChannel(stack, DIGEST, { schedule: '0 0 0 1 1 *' });
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
      const holders = [1, 2, 3].map((n) => {
        const holder = `Half Way Partners ${n} LLP`;
        stack.sandbox.scenario.disclose(issuers[0] ?? '', holder, 0.6 + n / 10);
        return holder;
      });
      await waitFor(
        'three events staged',
        async () => (await app.ctx.outbox.stagedCount(DIGEST)) === 3,
        30_000,
      );
      const first = daemons[0];
      first?.kill('SIGKILL');
      expect(await first?.exited).toBe('SIGKILL');

      // What the killed process had done: sealed the period, as a digest run does ...
      const channel = app.settings.config.channels.find((c) => c.name === DIGEST);
      if (!channel) throw new Error('no digest channel');
      const now = new Date();
      const batchId = digestBatchId(DIGEST, now.getTime());
      const sealed = await app.ctx.outbox.sealDigest(DIGEST, {
        batchId,
        scheduledAt: now.getTime(),
        to: now.toISOString(),
        timezone: channel.timezone,
        sendEmpty: false,
        firstFrom: now.toISOString(),
      });
      expect(sealed).toBe(3);
      expect(await sealedBatches(app)).toEqual([{ batchId, holders }]);
      expect(await app.ctx.outbox.stagedCount(DIGEST)).toBe(0);
      if (phase === 'sealed and in flight') {
        // ... and, in the second case, claimed it for sending as its deliverer does, then died before
        // the send was recorded (the lease it held lapses on its own).
        const lease = new Lease(app.redis, box.lease, `dead-process|${DIGEST}`, 1_000);
        await waitFor('the killed daemon lease lapsed', () => lease.take(), DRAIN_LEASE_MS * 2);
        const { items } = await app.ctx.outbox.ready(DIGEST, Date.now(), 1_000);
        const digestEvents = await app.ctx.outbox.digestEvents(DIGEST, batchId);
        const next = composeNext(DIGEST, items, () => 1, channel.ratePerSecond, digestEvents);
        if (!next) throw new Error('nothing to compose');
        const inflight: Inflight = {
          deliveryId: next.deliveryId,
          message: next.message,
          eventIds: next.eventIds,
          attempts: 0,
          partsSent: 0,
          nextAttemptAt: Date.now(),
          claimedAt: Date.now(),
          ...(next.digestBatch ? { digestBatch: next.digestBatch } : {}),
        };
        expect(await app.ctx.outbox.claim(DIGEST, lease.owner, inflight, next.itemIds)).toBe('claimed');
        expect((await app.ctx.outbox.inflight(DIGEST))?.deliveryId).toBe(batchId);
        expect(await app.ctx.outbox.depth(DIGEST, Date.now())).toEqual({
          waiting: 0,
          ready: 0,
          inflight: 1,
          parked: 0,
        });
      }
      expect(await app.redis.exists(box.digestBatch(batchId))).toBe(1);

      patchChannel(stack, DIGEST, { schedule: '*/2 * * * * *' });
      daemons.push(spawnShortwatch(['start', '-c', stack.configPath]));
      const mailsWith = (holder: string) =>
        stack.smtp.mails.filter((m) => (m.parsed.text ?? '').includes(holder));
      await waitFor('the crashed batch sent', () => holders.every((h) => mailsWith(h).length > 0), 30_000);
      await waitFor(
        'the batch done',
        async () => (await app.redis.exists(box.digestBatch(batchId))) === 0,
        30_000,
      );

      // A newer event after the restart lands in the next period's digest, not in the recovered one.
      const later = 'Later Period Capital LLP';
      stack.sandbox.scenario.disclose(issuers[1] ?? '', later, 0.9);
      await waitFor('the next digest', () => mailsWith(later).length > 0, 30_000);
      // Two more digest periods close, for any second copy to show.
      const closedAt = () => app.redis.hget(box.digestMeta, 'lastDigestAt');
      for (let period = 0; period < 2; period++) {
        const before = await closedAt();
        await waitFor('another digest period', async () => (await closedAt()) !== before, 30_000);
      }

      const [recovered, ...extra] = mailsWith(holders[0] ?? '');
      expect(extra).toHaveLength(0);
      for (const holder of holders) expect(mailsWith(holder)).toEqual([recovered]);
      expect(recovered?.parsed.messageId).toBe(`<${batchId}@example.test>`);
      expect(mailsWith(later)).toHaveLength(1);
      expect(mailsWith(later)[0]).not.toBe(recovered);
      expect(stack.smtp.mails).toHaveLength(2);
      expect(await app.ctx.outbox.depth(DIGEST, Date.now())).toEqual({
        waiting: 0,
        ready: 0,
        inflight: 0,
        parked: 0,
      });
    },
    60_000,
  );
});

/*
 * A digest whose send fails is retried as that same batch (same events, same Message-ID), while the
 * periods after it close on schedule into batches of their own: a failure never folds one period's
 * events into the next.
 */
describe('digests: a failed digest send', () => {
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

  it('is retried as the same batch, and the next period does not inherit it', async () => {
    stack = await startStack({ issuers: 4, seed: 3, channels: ['digest'] });
    // A retry waits 5 to 10 s: time for the next period to be staged and sealed behind the failed one.
    patchChannel(stack, DIGEST, { schedule: '*/2 * * * * *', backoff: '10s' });
    observer = await stack.openApp();
    const app = observer;
    const issuers = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    daemons.push(spawnShortwatch(['start', '-c', stack.configPath]));
    await waitFor(
      'baseline snapshots',
      async () => (await app.ctx.snapshots.getMany(issuers)).size === issuers.length,
      30_000,
    );

    stack.smtp.script({ responseCode: 451, message: '4.3.0 Try again later' });
    const holders = [1, 2, 3].map((n) => {
      const holder = `Retried Digest Partners ${n} LLP`;
      stack.sandbox.scenario.disclose(issuers[0] ?? '', holder, 0.6 + n / 10);
      return holder;
    });
    const failed = await waitFor('the digest send failed once', async () => {
      const inflight = await app.ctx.outbox.inflight(DIGEST);
      return inflight && inflight.attempts === 1 ? inflight : undefined;
    });
    if (!failed?.digestBatch) throw new Error('the failed message is not a digest batch');
    expect(failed.lastError).toContain('451');
    expect(failed.deliveryId).toBe(failed.digestBatch);
    expect(failed.message.type === 'digest' && failed.message.events.map((e) => e.holder).sort()).toEqual(
      holders,
    );
    expect(stack.smtp.mails).toHaveLength(0);

    // The next period: its event is sealed into a batch of its own while the failed one waits to retry.
    const later = 'Later Period Capital LLP';
    stack.sandbox.scenario.disclose(issuers[1] ?? '', later, 0.9);
    const next = await waitFor('the next period sealed', async () =>
      (await sealedBatches(app)).find((b) => b.holders.includes(later)),
    );
    expect(next?.holders).toEqual([later]);
    expect(next?.batchId).not.toBe(failed.digestBatch);
    expect((await app.ctx.outbox.inflight(DIGEST))?.deliveryId).toBe(failed.deliveryId);
    expect(stack.smtp.mails).toHaveLength(0);

    const mailsWith = (holder: string) =>
      stack.smtp.mails.filter((m) => (m.parsed.text ?? '').includes(holder));
    await waitFor(
      'both digests sent',
      () => mailsWith(holders[0] ?? '').length > 0 && mailsWith(later).length > 0,
      30_000,
    );
    // One more digest period closes, for any second copy to show.
    const closedAt = () => app.redis.hget(stack.keys.outbox(DIGEST).digestMeta, 'lastDigestAt');
    const before = await closedAt();
    await waitFor('another digest period', async () => (await closedAt()) !== before, 30_000);

    const [retried, ...extra] = mailsWith(holders[0] ?? '');
    expect(extra).toHaveLength(0);
    for (const holder of holders) expect(mailsWith(holder)).toEqual([retried]);
    expect(retried?.parsed.messageId).toBe(`<${failed.deliveryId}@example.test>`);
    expect(retried?.parsed.text).not.toContain(later);
    expect(mailsWith(later)).toHaveLength(1);
    expect(mailsWith(later)[0]?.parsed.messageId).toBe(`<${next?.batchId}@example.test>`);
    expect(stack.smtp.mails).toHaveLength(2);
    expect(await app.ctx.outbox.depth(DIGEST, Date.now())).toEqual({
      waiting: 0,
      ready: 0,
      inflight: 0,
      parked: 0,
    });
  }, 60_000);
});
