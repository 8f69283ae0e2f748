import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { digestBatchId } from '../../src/state/delivery-ids.js';
import { makeEvent } from '../routing/events.js';
import { startStack, usePerTest, waitFor } from './harness.js';

// Finding 8 of issue 20: the digest job had one attempt, so a Redis error during the seal left the period
// unsealed until the next one. Here the seal of a period fails (its meta record has the wrong type, a real
// Redis error inside the script), the record is repaired, and the same job, retried, seals that period
// under that period's batch id: the digest goes out without waiting for the next period.

describe('the digest job', () => {
  const current = usePerTest();

  it('is retried after a Redis error during the seal, and seals its own period', async () => {
    const stack = await startStack({ channels: ['digest'] });
    current.stack = stack;
    const { redis } = stack.redis;
    const box = stack.keys.outbox('morning');
    const event = makeEvent({ id: 'ev-digest-retry', holder: 'RETRIED CAPITAL LLP' });
    await redis.hset(box.digestStaged, event.id, JSON.stringify(event));
    await redis.set(box.digestMeta, 'not a hash');

    const app = await stack.openApp();
    current.app = app;
    await app.startDaemon({ workerOnly: false });
    const failedOnce = async (): Promise<Job | undefined> => {
      const jobs = await app.queues.digest.getJobs(['delayed', 'failed', 'wait', 'active', 'completed']);
      return jobs.find(
        (j) => j?.name === 'digest' && j.attemptsMade >= 1 && /WRONGTYPE/.test(j.failedReason ?? ''),
      );
    };
    const job = await waitFor('a digest seal failing on the broken record', failedOnce, 30_000);
    if (!job?.id) throw new Error('no failed digest job');
    const jobId = job.id;
    await redis.del(box.digestMeta);
    const period = job.opts.prevMillis ?? job.timestamp;
    const batchId = digestBatchId('morning', period);

    await waitFor('the same job completed on a retry', async () => {
      const again = await app.queues.digest.getJob(jobId);
      return again !== undefined && (await again.isCompleted());
    });
    const done = await app.queues.digest.getJob(jobId);
    expect(done?.attemptsMade).toBeGreaterThanOrEqual(2);
    expect(done?.returnvalue).toBe(1);
    const mail = await waitFor('the digest e-mail', () =>
      stack.smtp.mails.find((m) => (m.parsed.text ?? '').includes('RETRIED CAPITAL LLP')),
    );
    expect(mail?.parsed.messageId).toContain(batchId);
  }, 60_000);
});
