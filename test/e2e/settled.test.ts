import { describe, expect, it } from 'vitest';
import type { NoticeMessage } from '../../src/channels/types.js';
import { keyRoot } from '../../src/state/keys.js';
import { Outbox } from '../../src/state/outbox.js';
import { startStack, usePerTest, waitFor } from './harness.js';
import { repeated, settled } from './settled.js';

describe('settled: "nothing more will arrive" is a condition on the deployment, not a sleep', () => {
  const current = usePerTest();

  it('returns only once a message still backing off in an outbox has gone out', async () => {
    const stack = await startStack({ issuers: 2, channels: ['slack'] });
    current.stack = stack;
    const app = await stack.openApp();
    current.app = app;
    await app.startDaemon({ workerOnly: false });
    const ids = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await waitFor('baselines', async () => (await app.ctx.snapshots.getMany(ids)).size === ids.length);

    // Ready 1.5 s from now, as a retry after a backoff would be: any fixed sleep shorter than that misses it.
    const outbox = new Outbox(stack.redis.redis, keyRoot(stack.prefix));
    const late: NoticeMessage = {
      type: 'notice',
      key: 'late',
      severity: 'info',
      title: 'Late',
      text: 'ready after a backoff',
    };
    expect(await outbox.enqueue('desk', 'n-late', late, Date.now() + 1_500)).toBe(true);
    expect(stack.slack.posts).toHaveLength(0);

    await settled(stack);
    expect(stack.slack.delivered()).toHaveLength(1);
  });

  it.each([
    ['nothing repeated', ['a', 'b', 'c'], []],
    ['each repeat once, in order of its first repeat', ['a', 'b', 'b', 'a', 'b'], ['b', 'a']],
    ['an empty list', [], []],
  ])('repeated: %s', (_name, values, expected) => {
    expect(repeated(values)).toEqual(expected);
  });
});
