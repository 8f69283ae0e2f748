import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { enqueueDelivery } from '../../src/jobs/dispatch.js';
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
 * The two states a digest run killed half-way leaves in Redis, made exactly: the staged events claimed
 * (renamed to the batch key), and also their delivery queued under the batch id but the period not
 * closed. delivery-crash-digest.test.ts kills a real run; a kill there lands where the timing puts it,
 * so each state is built here on purpose, with the daemon dead, and a restart must finish the run.
 */
describe('digests: a run killed half-way is finished by the next one', () => {
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

  it.each([{ phase: 'claimed' }, { phase: 'claimed and queued' }])(
    'a batch $phase before the kill goes out once; later events go in a later digest',
    async ({ phase }) => {
      stack = await startStack({ issuers: 4, seed: 3, channels: ['digest'] });
      // No digest run in the first life (its schedule is once a year): the batch is the test's to leave.
      patchChannel(stack, DIGEST, { schedule: '0 0 0 1 1 *' });
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
      const holders = [1, 2, 3].map((n) => {
        const holder = `Half Way Partners ${n} LLP`;
        stack.sandbox.scenario.disclose(issuers[0] ?? '', holder, 0.6 + n / 10);
        return holder;
      });
      await waitFor(
        'three events staged',
        async () => (await app.ctx.digests.stagedCount(DIGEST)) === 3,
        30_000,
      );
      const first = daemons[0];
      first?.kill('SIGKILL');
      expect(await first?.exited).toBe('SIGKILL');

      // What the killed run had done: claimed the period, and in the second case queued its delivery.
      const startedAt = new Date();
      const batch = await app.ctx.digests.claim(DIGEST, startedAt, startedAt);
      expect(batch.events.map((e) => e.holder).sort()).toEqual(holders);
      if (phase === 'claimed and queued') {
        const channel = app.settings.config.channels.find((c) => c.name === DIGEST);
        if (!channel) throw new Error('no digest channel');
        const period = { from: batch.from, to: batch.to, timezone: channel.timezone };
        await enqueueDelivery(
          app.ctx,
          channel,
          { type: 'digest', period, events: batch.events },
          batch.batchId,
        );
      }
      expect(await app.redis.exists(keys.digestBatch(DIGEST))).toBe(1);
      expect(await app.ctx.digests.stagedCount(DIGEST)).toBe(0);

      patchChannel(stack, DIGEST, { schedule: '*/2 * * * * *' });
      daemons.push(spawnShortwatch(['start', '-c', stack.configPath]));
      const mailsWith = (holder: string) =>
        stack.smtp.mails.filter((m) => (m.parsed.text ?? '').includes(holder));
      await waitFor('the crashed batch sent', () => holders.every((h) => mailsWith(h).length > 0), 30_000);
      await waitFor(
        'the period closed',
        async () =>
          (await app.redis.exists(keys.digestBatch(DIGEST), `${keys.digestBatch(DIGEST)}:meta`)) === 0,
        30_000,
      );

      // A newer event after the restart lands in the next period's digest, not in the recovered one.
      const later = 'Later Period Capital LLP';
      stack.sandbox.scenario.disclose(issuers[1] ?? '', later, 0.9);
      await waitFor('the next digest', () => mailsWith(later).length > 0, 30_000);
      // Two more digest periods close, for any second copy to show.
      const closedAt = () => app.redis.hget(keys.digestMeta(DIGEST), 'lastDigestAt');
      for (let period = 0; period < 2; period++) {
        const before = await closedAt();
        await waitFor('another digest period', async () => (await closedAt()) !== before, 30_000);
      }

      const [recovered, ...extra] = mailsWith(holders[0] ?? '');
      expect(extra).toHaveLength(0);
      for (const holder of holders) expect(mailsWith(holder)).toEqual([recovered]);
      expect(mailsWith(later)).toHaveLength(1);
      expect(mailsWith(later)[0]).not.toBe(recovered);
      expect(stack.smtp.mails).toHaveLength(2);
      expect(await app.redis.exists(keys.digestBatch(DIGEST), `${keys.digestBatch(DIGEST)}:meta`)).toBe(0);
    },
    60_000,
  );
});
