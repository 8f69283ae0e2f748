import { describe, expect, it } from 'vitest';
import { type DeliveryError, isDeliveryError } from '../../../src/channels/delivery-error.js';
import { renderSlack } from '../../../src/channels/slack/index.js';
import type { ChannelSender, Message } from '../../../src/channels/types.js';
import { channelSchema } from '../../../src/config/schema.js';
import { ACME, raises } from '../story-fixtures.js';
import { useSlackAppStand } from './stand.js';

const TOKEN = 'xoxb-1111-2222-SecretBotToken';
const CHANNEL = 'C0DESK01';
const NOW = () => new Date('2024-05-02T07:31:00Z');

/** What the senders slept for (pacing, a 429's wait): recorded, not slept. */
const slept: number[] = [];
const stand = useSlackAppStand(TOKEN, CHANNEL, 'slack-app', NOW, (slack) => {
  slack.scopes = 'chat:write';
  slept.length = 0;
});

function sender(overrides: Record<string, unknown> = {}): ChannelSender {
  return stand.sender({
    config: overrides,
    sleep: async (ms) => {
      slept.push(ms);
    },
  });
}

async function failure(promise: Promise<unknown>): Promise<DeliveryError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isDeliveryError(error)) throw new Error(`expected a DeliveryError, got ${String(error)}`);
  return error;
}

const message: Message = { type: 'events', issuer: ACME, events: raises(3) };

describe('kind: slack-app', () => {
  it('posts the Block Kit payload the webhook kind renders, with chat.postMessage and the bot token', async () => {
    await sender().send(message);
    expect(stand.slack.calls.map((call) => [call.method, call.token])).toEqual([['chat.postMessage', TOKEN]]);
    const [expected] = renderSlack(message);
    expect(stand.slack.posted).toEqual([
      { ...expected, channel: CHANNEL, ts: '1700000000.000001', edits: 0 },
    ]);
  });

  it('checks the token with auth.test and names a missing scope', async () => {
    await expect(sender().verify()).resolves.toContain(`Slack app posting to ${CHANNEL}`);
    stand.slack.scopes = 'channels:read';
    const error = await failure(sender().verify());
    expect(error.message).toBe('Slack bot token of channel desk lacks the scope chat:write');
    const bad = await failure(sender({ token: 'xoxb-wrong' }).verify());
    expect([bad.code, bad.outcome]).toEqual(['invalid_auth', 'park']);
    expect(bad.message).not.toContain('xoxb');
  });

  // A 429 used to pause the channel at once; it is now waited out once in place (method-gate.ts).
  it('waits out one 429 Retry-After in place; a second one, or `ratelimited` twice, pauses the channel', async () => {
    const limited = {
      status: 429,
      headers: { 'retry-after': '3' },
      body: { ok: false, error: 'ratelimited' },
    };
    stand.slack.script('chat.postMessage', limited);
    await sender().send(message);
    expect(slept).toEqual([3000]);
    expect(stand.slack.posted).toHaveLength(1);
    stand.slack.script('chat.postMessage', limited);
    stand.slack.script('chat.postMessage', limited);
    const twice = await failure(sender().send(message));
    expect([twice.outcome, twice.retryAfterMs, twice.status]).toEqual(['rate-limit', 3000, 429]);
    const inBody = { headers: { 'retry-after': '2' }, body: { ok: false, error: 'ratelimited' } };
    stand.slack.script('chat.postMessage', inBody);
    stand.slack.script('chat.postMessage', inBody);
    const again = await failure(sender().send(message));
    expect([again.outcome, again.retryAfterMs]).toEqual(['rate-limit', 2000]);
    expect(stand.slack.posted).toHaveLength(1);
  });

  it('passes a Retry-After past 30 s to the deliverer without waiting', async () => {
    stand.slack.script('chat.postMessage', {
      status: 429,
      headers: { 'retry-after': '45' },
      body: { ok: false },
    });
    const long = await failure(sender().send(message));
    expect([long.outcome, long.retryAfterMs]).toEqual(['rate-limit', 45_000]);
    expect(slept).toEqual([]);
  });

  it.each([
    ['channel_not_found', 'park'],
    ['not_in_channel', 'park'],
    ['invalid_blocks', 'park'],
    ['internal_error', 'retry'],
    ['service_unavailable', 'retry'],
  ])('an answer of %s is %s', async (code, outcome) => {
    stand.slack.script('chat.postMessage', { body: { ok: false, error: code } });
    const error = await failure(sender().send(message));
    expect([error.code, error.outcome]).toEqual([code, outcome]);
  });

  it('posts a long message in parts within Block Kit limits, resuming after the parts already sent', async () => {
    const long: Message = { type: 'events', issuer: ACME, events: raises(300) };
    const parts = renderSlack(long).length;
    expect(parts).toBeGreaterThan(2);
    const recorded: number[] = [];
    await sender({ ratePerSecond: 100 }).send(long, {
      partsSent: 1,
      deliveryId: 'd-1',
      onPartSent: async (sent) => {
        recorded.push(sent);
      },
    });
    expect(stand.slack.posted.map((post) => post.text.split('\n')[0])).toEqual(
      renderSlack(long)
        .slice(1)
        .map((payload) => payload.text.split('\n')[0]),
    );
    expect(recorded).toEqual(Array.from({ length: parts - 1 }, (_, i) => i + 2));
  });

  it('refuses a channel that is not a conversation id, naming the key', () => {
    const parsed = channelSchema.safeParse({ name: 'x', kind: 'slack-app', token: TOKEN, channel: '#desk' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['channel']);
  });
});
