import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { keyRoot, stateKeys } from '../../src/state/keys.js';
import { TEST_SIGNING_SECRET } from '../channels/webhook/fixtures.js';
import { startWebhookReceiver, type WebhookReceiver } from '../chaos/webhook-receiver.js';
import { addChannel, type Stack, startStack, updateConfig, waitFor } from './harness.js';
import { settled } from './settled.js';

/** Every event id a webhook receiver accepted (once per delivery id), with how often each arrived. */
function webhookEventCounts(hook: WebhookReceiver): Map<string, number> {
  const counts = new Map<string, number>();
  for (const receipt of hook.accepted()) {
    const body = JSON.parse(receipt.body) as {
      events?: { id: string }[];
      groups?: { events: { id: string }[] }[];
    };
    const events = body.events ?? body.groups?.flatMap((g) => g.events) ?? [];
    for (const event of events) counts.set(event.id, (counts.get(event.id) ?? 0) + 1);
  }
  return counts;
}

/** How many received e-mails name the holder. */
function mailsNaming(stack: Stack, holder: string): number {
  return stack.smtp.mails.filter((m) => (m.parsed.text ?? '').includes(holder)).length;
}

/*
 * A poll whose commit fails part-way (here: one channel's dedupe key holds a value of the wrong type, a
 * Redis-side fault) is retried; meanwhile the upstream moves ANOTHER holder of the same issuer, and a
 * mute and a filter change. The old design keyed a delivery by the set of events in a group, so the
 * replayed group got a new id and the already-delivered event went out again. Now each (channel, event)
 * is accepted once, whatever the grouping of the replay.
 */
describe('deliveries: replays after the upstream moved, a mute and a filter change', () => {
  let stack: Stack;
  let hook: WebhookReceiver;
  let app: App | undefined;

  afterEach(async () => {
    await app?.stop(2_000);
    app = undefined;
    await hook.close();
    await stack.cleanup();
  });

  it('delivers each event to each channel exactly once', async () => {
    stack = await startStack({ issuers: 3, seed: 11 });
    hook = await startWebhookReceiver();
    // The webhook is routed before `desk` fails, so the failed commit has already written its item.
    updateConfig(stack, (config) => ({
      ...config,
      channels: [
        {
          name: 'hook',
          kind: 'webhook',
          url: hook.url,
          signingSecret: TEST_SIGNING_SECRET,
          backoff: '100ms',
        },
        ...(config.channels as unknown[]),
      ],
    }));
    app = await stack.openApp();
    await app.startDaemon({ workerOnly: false });
    const running = app;
    const [issuer] = stack.sandbox.scenario.issuers();
    const id = issuer!.svc_issuer_id;
    await waitFor('a baseline', async () => (await running.ctx.snapshots.get(id)) !== null);

    // The fault: `desk`'s dedupe set is a string, so every commit with a desk item fails at that point.
    const deskSeen = stateKeys(keyRoot(stack.prefix)).outbox('desk').seen;
    await running.redis.set(deskSeen, 'not a sorted set');
    const before = (await running.ctx.snapshots.get(id))?.polledAt;
    stack.sandbox.scenario.disclose(id, 'Replay Capital LLP', 0.91);
    await waitFor('the webhook got the first event from a failed commit', () => hook.accepted().length >= 1);
    expect((await running.ctx.snapshots.get(id))?.polledAt).toBe(before);

    // While the poll keeps failing: another holder moves, a mute and a filter change arrive.
    stack.sandbox.scenario.disclose(id, 'Second Mover AG', 0.77);
    await running.ctx.mutes.add({ scope: 'holder', target: 'Nobody Relevant', forMs: 3_600_000 });
    addChannel(stack, { name: 'late', kind: 'console' });
    await running.reload(await reparse(stack), { workerOnly: false });
    await running.redis.del(deskSeen);

    await waitFor('both events on the webhook', () => webhookEventCounts(hook).size >= 2, 20_000);
    await waitFor('both holders in Slack', () => {
      const text = JSON.stringify(stack.slack.delivered());
      return text.includes('Replay Capital') && text.includes('Second Mover');
    });
    await waitFor('both holders by e-mail', () => mailsNaming(stack, 'Second Mover') >= 1);
    // The failed commits' retries are done and every outbox is empty: no replay can send anything now.
    await settled(stack, { receivers: [() => hook.receipts.length] });

    expect([...webhookEventCounts(hook).values()]).toEqual([1, 1]);
    expect(hook.repeats()).toHaveLength(0);
    const slack = stack.slack.delivered().map((p) => JSON.stringify(p));
    expect(slack.filter((t) => t.includes('Replay Capital'))).toHaveLength(1);
    expect(slack.filter((t) => t.includes('Second Mover'))).toHaveLength(1);
    expect(mailsNaming(stack, 'Replay Capital')).toBe(1);
    expect(mailsNaming(stack, 'Second Mover')).toBe(1);
  });
});

async function reparse(stack: Stack) {
  const { parseConfig } = await import('../../src/config/load.js');
  const { stringify } = await import('yaml');
  return parseConfig(stringify(stack.configObject), stack.configPath);
}
