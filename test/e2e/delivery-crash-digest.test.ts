import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { deliveryJobSchema } from '../../src/channels/message-schema.js';
import { stateKeys } from '../../src/jobs/keys.js';
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
 * A SIGKILL during a digest run: the run claims the staged events (staged → batch), queues one delivery
 * whose job id is the batch id, then closes the period. Killed anywhere in that sequence, the next run
 * finds the claimed batch and sends it, or finds the delivery already queued; either way once. What no
 * receiver can make exactly-once is a kill while the digest email is on the wire (the server has it, the
 * job is not yet marked done): that job is sent again. Here the digest channel's rate limit holds the
 * delivery in its queue, so the kill hits the digest run and never an email in flight.
 */
describe('digests: SIGKILL while a digest run claims its batch', () => {
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

  it('sends the staged events in exactly one digest after a restart', async () => {
    stack = await startStack({ issuers: 6, seed: 5, channels: ['digest'] });
    // An empty digest goes out at once and uses the channel's one send per 50 s, so the digest of
    // the staged events waits in its queue: nothing is on the wire when the daemon dies.
    patchChannel(stack, DIGEST, { schedule: '*/2 * * * * *', sendEmpty: true, ratePerSecond: 0.02 });
    observer = await stack.openApp();
    const app = observer;
    const keys = stateKeys(stack.prefix);
    const issuers = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    daemons.push(spawnShortwatch(['start', '-c', stack.configPath]));
    await waitFor(
      'baseline snapshots',
      async () => (await app.ctx.snapshots.getMany(issuers)).size === issuers.length,
      30_000,
    );
    const queue = app.queues.deliver(DIGEST);
    await waitFor('an empty digest sent', async () => (await queue.getCompletedCount()) === 1, 30_000);
    expect(stack.smtp.mails).toHaveLength(1);

    // One issuer, so one poll stages all three at once and no digest period can split them.
    const issuerId = issuers[0] ?? '';
    const holders = [1, 2, 3].map((n) => {
      const holder = `Digest Crash Partners ${n} LLP`;
      stack.sandbox.scenario.disclose(issuerId, holder, 0.6 + n / 10);
      return holder;
    });
    await waitFor(
      'the events polled',
      async () => {
        const logged = (await app.ctx.eventLog.recent({ limit: 100 })).map((e) => e.holder);
        return holders.every((h) => logged.includes(h));
      },
      30_000,
      50,
    );
    // Kill the moment a digest run has claimed the staged events.
    await waitFor(
      'a digest run claimed the events',
      async () => (await app.redis.exists(keys.digestStaged(DIGEST))) === 0,
      30_000,
      1,
    );
    const first = daemons[0];
    first?.kill('SIGKILL');
    expect(await first?.exited).toBe('SIGKILL');
    const mentions = (holder: string) =>
      stack.smtp.mails.filter((m) => (m.parsed.text ?? '').includes(holder)).length;
    expect(holders.map(mentions)).toEqual([0, 0, 0]);
    // Where the kill landed: a claimed batch still in place, or its delivery already queued.
    const batchLeft = (await app.redis.exists(keys.digestBatch(DIGEST))) === 1;
    const pending = await queue.getJobs(['waiting', 'delayed', 'active']);
    const queuedWithEvents = pending.some((job) => {
      const parsed = deliveryJobSchema.safeParse(job.data);
      return (
        parsed.success && parsed.data.message.type === 'digest' && parsed.data.message.events.length === 3
      );
    });
    expect(batchLeft || queuedWithEvents).toBe(true);

    patchChannel(stack, DIGEST, { sendEmpty: false, ratePerSecond: 50 });
    daemons.push(spawnShortwatch(['start', '-c', stack.configPath]));
    await waitFor('the digest with the events', () => holders.every((h) => mentions(h) > 0), 30_000);
    // Two more digest periods close, for any second copy to show.
    const closedAt = () => app.redis.hget(keys.digestMeta(DIGEST), 'lastDigestAt');
    for (let period = 0; period < 2; period++) {
      const before = await closedAt();
      await waitFor('another digest period', async () => (await closedAt()) !== before, 30_000);
    }

    expect(holders.map(mentions)).toEqual([1, 1, 1]);
    const withEvents = stack.smtp.mails.filter((m) => holders.some((h) => (m.parsed.text ?? '').includes(h)));
    expect(withEvents).toHaveLength(1);
    expect(withEvents[0]?.parsed.subject).toMatch(/^Short positions digest: 3 changes/);
    expect(await app.redis.exists(keys.digestBatch(DIGEST), `${keys.digestBatch(DIGEST)}:meta`)).toBe(0);
    expect(await app.ctx.digests.stagedCount(DIGEST)).toBe(0);
  }, 60_000);
});
