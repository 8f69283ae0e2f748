import { describe, expect, it } from 'vitest';
import type { JobContext } from '../../src/jobs/context.js';
import { runPoll } from '../../src/jobs/poll.js';
import type { PollJobData } from '../../src/jobs/sweep.js';
import { startStack, usePerTest } from './harness.js';

/*
 * A poll reads the settings once, at the job's start, and passes them down (issue 21): a reload while it
 * runs cannot mix two configs on one path. Real Redis, the sandbox upstream and a real poll job, run by
 * `runPoll` itself with a context that counts the reads.
 */
describe('a poll job', () => {
  const current = usePerTest();

  it('reads the settings once, whether it takes a first snapshot or diffs a change', async () => {
    const stack = await startStack({ issuers: 1 });
    current.stack = stack;
    const app = await stack.openApp();
    current.app = app;
    let reads = 0;
    const counting = new Proxy(app.ctx, {
      get(target, key, receiver) {
        if (key !== 'settings') return Reflect.get(target, key, receiver);
        return () => {
          reads++;
          return target.settings();
        };
      },
    }) satisfies JobContext;
    const issuer = stack.sandbox.scenario.issuers()[0];
    if (!issuer) throw new Error('the scenario has no issuer');
    const poll = async (reason: PollJobData['reason'], n: number) => {
      const data: PollJobData = { issuerId: issuer.svc_issuer_id, issuerName: issuer.name, reason };
      const job = await app.queues.poll.add('poll', data, { jobId: `settings-once-${n}` });
      reads = 0;
      const result = await runPoll(counting, job, undefined);
      return { result, reads };
    };

    // A first snapshot also asks for the issuer's status=all history, which reads the plan and budget.
    expect(await poll('new', 1)).toEqual({
      result: { outcome: 'baseline', events: 0, committed: true },
      reads: 1,
    });
    stack.sandbox.scenario.step();
    const second = await poll('stale', 2);
    expect(second.result).toMatchObject({ committed: true });
    expect(second.reads).toBe(1);
  });
});
