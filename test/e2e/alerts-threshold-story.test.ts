import { afterEach, describe, expect, it } from 'vitest';
import { TEST_SIGNING_SECRET } from '../channels/webhook/fixtures.js';
import { acceptedEvents, startWebhookReceiver, type WebhookReceiver } from '../chaos/webhook-receiver.js';
import { type PerTest, slackText, startStack, updateConfig, usePerTest, waitFor } from './harness.js';
import { settled } from './settled.js';

const HOLDER = 'Marlin Capital LLP';
const FLAP_WINDOW_MS = 20_000;

/**
 * The story of one holder around 0.5%, end to end through the sandbox, the daemon, a Slack stand-in
 * and a signed webhook: a fall below is told once; the disappearance that confirms it reaches the
 * webhook and the event log but no second Slack alert; a return and the flap after it are held and
 * told in one Slack message with the sequence, while the webhook gets every change at once.
 */
describe('alerts: the 0.5% threshold story, end to end', () => {
  const current: PerTest = usePerTest();
  let hook: WebhookReceiver | undefined;
  afterEach(async () => {
    await hook?.close();
    hook = undefined;
  });

  it('tells a fall once, folds its confirmation, and coalesces a flap into one message', async () => {
    const stack = await startStack({ issuers: 3, seed: 5, channels: ['slack'] });
    current.stack = stack;
    hook = await startWebhookReceiver();
    const receiver = hook;
    updateConfig(stack, (config) => ({
      ...config,
      alerts: { flapWindow: `${FLAP_WINDOW_MS / 1_000}s`, reopenWindow: '30d' },
      channels: [
        ...(config.channels as unknown[]),
        {
          name: 'hook',
          kind: 'webhook',
          url: receiver.url,
          signingSecret: TEST_SIGNING_SECRET,
          backoff: '100ms',
        },
      ],
    }));
    const { scenario } = stack.sandbox;
    const issuer = scenario.issuers()[0];
    if (!issuer) throw new Error('no issuer');
    const id = issuer.svc_issuer_id;
    // Listed before shortwatch first looks: part of the silent baseline.
    scenario.disclose(id, HOLDER, 0.62, '2026-01-02');
    const app = await stack.openApp();
    current.app = app;
    await app.startDaemon({ workerOnly: false });
    await waitFor('a baseline', async () => (await app.ctx.snapshots.get(id)) !== null);
    const logged = async () =>
      (await app.ctx.eventLog.recentLogged({ issuerId: id, limit: 100 })).filter(
        (l) => l.event.holder === HOLDER,
      );
    const step = async (change: () => void, count: number) => {
      change();
      await waitFor(`event ${count} in the log`, async () => (await logged()).length >= count);
    };
    const marlinPosts = () =>
      stack.slack.delivered().filter((post) => slackText(post.payload).includes(HOLDER));

    // 1. Under the threshold: told at once, as a fall below.
    await step(() => scenario.disclose(id, HOLDER, 0.47, '2026-01-09'), 1);
    await waitFor('the fall on Slack', () => marlinPosts().length === 1);
    expect(slackText(marlinPosts()[0]?.payload)).toContain(
      `:arrow_down: *${HOLDER}* fell below the 0.5% disclosure threshold (0.47%), no longer public · 0.62% → *0.47%* (-0.15 pp)`,
    );

    // 2. Gone from the list: the confirmation of a fall already told.
    await step(() => scenario.drop(id, HOLDER), 2);
    // 3–5. Back above, under again, above again, all within the flap window of the fall: held.
    await step(() => scenario.disclose(id, HOLDER, 0.55, '2026-01-21'), 3);
    await step(() => scenario.disclose(id, HOLDER, 0.48, '2026-01-22'), 4);
    await step(() => scenario.disclose(id, HOLDER, 0.53, '2026-01-23'), 5);

    const events = (await logged()).map((l) => l.event).reverse();
    expect(events.map((e) => [e.kind, e.story?.kind ?? null, e.hold !== undefined])).toEqual([
      ['decreased', 'fell-below', false],
      ['closed', 'below-confirmed', false],
      ['opened', 'back-above', true],
      ['decreased', 'fell-below', true],
      ['increased', 'back-above', true],
    ]);
    expect(events[2]?.story).toEqual({ kind: 'back-above', fellBelowOn: '2026-01-09', daysBelow: 12 });
    // The confirmation's verdicts, as `shortwatch events` shows them: no second alert on Slack.
    const confirmation = (await logged()).find((l) => l.event.kind === 'closed');
    expect(confirmation?.routes.map((r) => [r.channel, r.verdict])).toEqual([
      ['desk', 'skip'],
      ['hook', 'send'],
    ]);

    // The webhook, which machines read, has every change at once, each once, while Slack waits.
    await waitFor(
      'every change on the webhook',
      () => acceptedEvents(receiver).filter((e) => e.holder === HOLDER).length === 5,
    );
    expect(marlinPosts()).toHaveLength(1);
    const onHook = acceptedEvents(receiver).filter((e) => e.holder === HOLDER);
    expect(new Set(onHook.map((e) => e.id)).size).toBe(5);

    // When the hold ends: one Slack message with the whole sequence, every value in it.
    await waitFor('the held sequence on Slack', () => marlinPosts().length === 2, FLAP_WINDOW_MS + 15_000);
    expect(slackText(marlinPosts()[1]?.payload)).toContain(
      `:left_right_arrow: *${HOLDER}* crossed 0.5% 3 times · not listed → 0.55% → 0.48% → *0.53%* (+0.53 pp) · crossed 0.5%`,
    );
    // Nothing else about this holder reached Slack: a fall, then one message for the flap.
    await settled(stack, { receivers: [() => receiver.receipts.length] });
    expect(marlinPosts()).toHaveLength(2);
  }, 90_000);
});
