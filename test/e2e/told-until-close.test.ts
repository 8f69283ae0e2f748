import { afterEach, describe, expect, it } from 'vitest';
import { TEST_SIGNING_SECRET } from '../channels/webhook/fixtures.js';
import { acceptedEvents, startWebhookReceiver, type WebhookReceiver } from '../chaos/webhook-receiver.js';
import { type PerTest, slackText, startStack, updateConfig, usePerTest, waitFor } from './harness.js';
import { settled } from './settled.js';

const HOLDER = 'Marlin Capital LLP';

/**
 * What each channel was told of a fall lasts until the position closes, whatever the reopen window:
 * with `reopenWindow: 0s` the record used to be pruned at the next poll, and the close, read as told
 * everywhere, never reached a channel that takes only closes.
 */
describe('the record of a fall told lives until the close (issue 28)', () => {
  const current: PerTest = usePerTest();
  let hook: WebhookReceiver | undefined;
  afterEach(async () => {
    await hook?.close();
    hook = undefined;
  });

  it('with reopenWindow: 0s, a closes-only channel gets the close; the desk told the fall does not', async () => {
    const stack = await startStack({ issuers: 2, seed: 7, channels: ['slack'] });
    current.stack = stack;
    hook = await startWebhookReceiver();
    const receiver = hook;
    updateConfig(stack, (config) => ({
      ...config,
      alerts: { flapWindow: '0s', reopenWindow: '0s' },
      channels: [
        ...(config.channels as unknown[]),
        {
          name: 'closes',
          kind: 'webhook',
          url: receiver.url,
          signingSecret: TEST_SIGNING_SECRET,
          backoff: '100ms',
          everyChange: false,
          filter: { kinds: ['closed'] },
        },
      ],
    }));
    const { scenario } = stack.sandbox;
    const id = scenario.issuers()[0]?.svc_issuer_id;
    if (id === undefined) throw new Error('no issuer');
    scenario.disclose(id, HOLDER, 0.62, '2026-01-02');
    const app = await stack.openApp();
    current.app = app;
    await app.startDaemon({ workerOnly: false });
    await waitFor('a baseline', async () => (await app.ctx.snapshots.get(id)) !== null);
    const logged = async () =>
      (await app.ctx.eventLog.recentLogged({ issuerId: id, limit: 100 })).filter(
        (l) => l.event.holder === HOLDER,
      );
    const marlinPosts = () =>
      stack.slack.delivered().filter((post) => slackText(post.payload).includes(HOLDER));

    // The fall: the desk takes it, the closes-only channel filters it out.
    scenario.disclose(id, HOLDER, 0.47, '2026-01-09');
    await waitFor('the fall on Slack', () => marlinPosts().length === 1);
    const memory = async () =>
      (await app.ctx.snapshots.get(id))?.memory?.[(await logged())[0]?.event.holderKey ?? ''];
    expect((await memory())?.below?.toldTo).toEqual(['desk']);

    // Another holder of the issuer moves: a poll with events of its own, past the 0s reopen window.
    scenario.disclose(id, 'Orca LP', 0.8, '2026-01-10');
    await waitFor('the other holder in the log', async () =>
      (await app.ctx.eventLog.recentLogged({ issuerId: id, limit: 100 })).some(
        (l) => l.event.holder === 'Orca LP',
      ),
    );
    expect((await memory())?.below?.toldTo).toEqual(['desk']);

    // The close: told to the channel that never heard of the fall, not again to the desk.
    scenario.drop(id, HOLDER);
    await waitFor('the close in the log', async () => (await logged()).length === 2);
    const close = (await logged()).find((l) => l.event.kind === 'closed');
    expect(close?.event.story).toEqual({
      kind: 'below-confirmed',
      fellBelowOn: '2026-01-09',
      toldTo: ['desk'],
    });
    expect(close?.routes.map((r) => [r.channel, r.verdict])).toEqual([
      ['desk', 'skip'],
      ['closes', 'send'],
    ]);
    await waitFor('the close on the webhook', () =>
      acceptedEvents(receiver).some((e) => e.holder === HOLDER),
    );
    expect(
      acceptedEvents(receiver)
        .filter((e) => e.holder === HOLDER)
        .map((e) => e.kind),
    ).toEqual(['closed']);
    await settled(stack, { receivers: [() => receiver.receipts.length] });
    expect(marlinPosts()).toHaveLength(1);
    // The close spent the record: nothing of who was told is kept.
    expect((await memory())?.below?.toldTo).toBeUndefined();
  }, 90_000);
});
