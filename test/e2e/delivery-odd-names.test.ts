import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { holderKey } from '../../src/positions/index.js';
import { TEST_SIGNING_SECRET } from '../channels/webhook/fixtures.js';
import { startWebhookReceiver, type WebhookReceiver } from '../chaos/webhook-receiver.js';
import { type Stack, slackEvents, slackText, startStack, updateConfig, waitFor } from './harness.js';

const LONE = 'Lone \uD800 Surrogate Fund';
const LONG = `Very ${'Long '.repeat(1_000)}Capital`;
const FORGED = 'Evil\n:new: *Fake Capital* opened';
const FORGED_SHOWN = 'Evil :new: *Fake Capital* opened';

/*
 * A holder name with a lone UTF-16 surrogate once made Redis' cjson refuse the snapshot, and every later
 * commit of the issuer failed. Names are made well-formed at the upstream edge (U+FFFD), no script decodes
 * JSON, and renderers cut names to their channels' limits: both names reach every channel, and the issuer
 * keeps being polled.
 */
describe('deliveries: a lone surrogate and a 5,000-character holder name', () => {
  let stack: Stack;
  let hook: WebhookReceiver;
  let app: App | undefined;

  afterEach(async () => {
    await app?.stop(2_000);
    app = undefined;
    await hook.close();
    await stack.cleanup();
  });

  /** Two issuers, Slack, e-mail and a webhook channel; the daemon running and the first issuer baselined. */
  async function startWithWebhook(): Promise<{ running: App; id: string }> {
    stack = await startStack({ issuers: 2, seed: 5 });
    hook = await startWebhookReceiver();
    updateConfig(stack, (config) => ({
      ...config,
      channels: [
        ...(config.channels as unknown[]),
        { name: 'hook', kind: 'webhook', url: hook.url, signingSecret: TEST_SIGNING_SECRET },
      ],
    }));
    app = await stack.openApp();
    await app.startDaemon({ workerOnly: false });
    const running = app;
    const id = stack.sandbox.scenario.issuers()[0]!.svc_issuer_id;
    await waitFor('a baseline', async () => (await running.ctx.snapshots.get(id)) !== null);
    return { running, id };
  }

  it('flow through poll, outbox and every channel without wedging the issuer', async () => {
    const { running, id } = await startWithWebhook();

    stack.sandbox.scenario.disclose(id, LONE, 0.61);
    stack.sandbox.scenario.disclose(id, LONG, 0.72);
    const hookText = () =>
      hook
        .accepted()
        .map((r) => r.body)
        .join('\n');
    await waitFor(
      'both on the webhook',
      () => hookText().includes('Surrogate') && hookText().includes('Very Long'),
    );
    await waitFor('Slack', () => JSON.stringify(stack.slack.delivered()).includes('Surrogate'));
    await waitFor('e-mail', () => stack.smtp.mails.some((m) => (m.parsed.text ?? '').includes('Surrogate')));
    expect(hookText()).toContain('Lone \uFFFD Surrogate Fund');
    expect((await running.ctx.snapshots.get(id))?.positions).toBeDefined();

    // The issuer is not wedged: its next change is told too.
    stack.sandbox.scenario.disclose(id, 'After Fund LLP', 0.55);
    await waitFor('the next change', () => hookText().includes('After Fund LLP'));
    expect(hook.repeats()).toHaveLength(0);
  });

  /*
   * A holder name carrying a newline once started a line of its own in the Slack message, where it read
   * as a second alert. Names are cleaned where they are displayed (channels/format.ts), never in the
   * snapshot or the identity key: the stored name and the webhook's structured field stay exact.
   */
  it('a newline in a holder name cannot forge a line in the Slack message', async () => {
    const { running, id } = await startWithWebhook();

    stack.sandbox.scenario.disclose(id, FORGED, 0.64);
    const forgedPosts = () =>
      stack.slack
        .delivered()
        .map((post) => post.payload)
        .filter((payload) => JSON.stringify(payload).includes('Fake Capital'));
    await waitFor('the Slack post', () => forgedPosts().length > 0);
    await waitFor('the webhook', () => hook.accepted().some((r) => r.body.includes('Fake Capital')));

    const [post] = forgedPosts();
    expect(forgedPosts()).toHaveLength(1);
    // Exactly one event line, and it is the real one: `opened` by a holder whose name holds the rest.
    expect(slackEvents(post)).toEqual([`${id}|${holderKey(FORGED_SHOWN)}|opened`]);
    for (const text of slackText(post).split('\n')) expect(text).not.toMatch(/^:new: \*Fake Capital\*/);
    expect(JSON.stringify(post)).toContain(`*${FORGED_SHOWN}* opened *0.64%*`);

    // The raw value is kept where it is data: the snapshot, the identity key, the webhook's fields.
    const stored = Object.values((await running.ctx.snapshots.get(id))?.positions ?? {});
    expect(stored.map((p) => p.holder)).toContain(FORGED);
    const body = hook.accepted().find((r) => r.body.includes('Fake Capital'))?.body ?? '{}';
    const event = (JSON.parse(body).events as { holder: string; holderKey: string }[])[0];
    expect(event).toMatchObject({ holder: FORGED, holderKey: holderKey(FORGED) });
  });
});
