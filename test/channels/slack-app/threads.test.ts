import { describe, expect, it } from 'vitest';
import { DeliveryError, isDeliveryError } from '../../../src/channels/delivery-error.js';
import { burstOf } from '../../../src/channels/slack-app/index.js';
import { MethodGate } from '../../../src/channels/slack-app/method-gate.js';
import type { ChannelSender, Message } from '../../../src/channels/types.js';
import { channelSchema } from '../../../src/config/schema.js';
import type { PositionEvent } from '../../../src/positions/types.js';
import { stateKeys } from '../../../src/state/keys.js';
import { ACME, eventsOf, flap, holderRaise, raises } from '../story-fixtures.js';
import { useSlackAppStand } from './stand.js';

const TOKEN = 'xoxb-3333-4444-ThreadBotToken';
const CHANNEL = 'C0DESK02';
const NOW = () => new Date('2024-05-02T07:40:00Z');
const BETA = { id: 'ISS-2', name: 'Beta SA' };

const stand = useSlackAppStand(TOKEN, CHANNEL, 'slack-thread', NOW, (slack) => {
  slack.users.clear();
  slack.scopes = 'chat:write';
});

/** A sender on this test's Redis: a second one on the same Redis is the daemon after a restart. */
function sender(overrides: Record<string, unknown> = {}): ChannelSender {
  return stand.sender({ config: { ratePerSecond: 100, ...overrides } });
}

function at(detectedAt: string, events: PositionEvent[]): PositionEvent[] {
  return events.map((e) => ({ ...e, id: `${e.id}@${detectedAt}`, detectedAt }));
}

async function failure(promise: Promise<unknown>): Promise<DeliveryError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isDeliveryError(error)) throw new Error(`expected a DeliveryError, got ${String(error)}`);
  return error;
}

describe('slack-app threads: one per issuer and day', () => {
  it('posts the first message of an issuer on a day as a parent and later ones as replies in its thread', async () => {
    const desk = sender();
    await desk.send({ type: 'events', issuer: ACME, events: raises(1) });
    await desk.send({ type: 'events', issuer: BETA, events: raises(1, BETA) });
    await desk.send({ type: 'events', issuer: ACME, events: raises(1, ACME, 5) });
    const [acme, beta] = stand.slack.parents();
    expect(stand.slack.parents().map((m) => m.text.includes('Beta SA'))).toEqual([false, true]);
    expect(stand.slack.replies(acme?.ts ?? '')).toHaveLength(1);
    expect(stand.slack.replies(beta?.ts ?? '')).toHaveLength(0);
  });

  it('keeps threading after a restart (the parent ts is in Redis, with an expiry) and starts a new thread the next day', async () => {
    await sender().send({ type: 'events', issuer: ACME, events: raises(1) });
    const [parent] = stand.slack.parents();
    await sender().send({ type: 'events', issuer: ACME, events: raises(1, ACME, 3) });
    expect(stand.slack.replies(parent?.ts ?? '')).toHaveLength(1);
    const keys = await stand.redis.redis.keys(
      `${stateKeys(stand.redis.prefix).channelMemory('desk', 'thread:')}*`,
    );
    expect(keys).toHaveLength(1);
    const ttl = await stand.redis.redis.pttl(keys[0] ?? '');
    // Kept until two days after the detection (07:30), measured from now (07:40).
    expect(ttl).toBeGreaterThan(47 * 3_600_000);
    expect(ttl).toBeLessThanOrEqual(48 * 3_600_000);
    await sender().send({ type: 'events', issuer: ACME, events: at('2024-05-03T06:00:00Z', raises(1)) });
    expect(stand.slack.parents()).toHaveLength(2);
  });

  it('counts the day in the channel’s time zone', async () => {
    // 23:30 UTC on 2 May is 3 May in Tokyo: the same Tokyo day as 01:00 UTC on 3 May.
    const tokyo = sender({ timezone: 'Asia/Tokyo' });
    await tokyo.send({ type: 'events', issuer: ACME, events: at('2024-05-02T23:30:00Z', raises(1)) });
    await tokyo.send({
      type: 'events',
      issuer: ACME,
      events: at('2024-05-03T01:00:00Z', raises(1, ACME, 2)),
    });
    expect(stand.slack.parents()).toHaveLength(1);
    expect(stand.slack.posted).toHaveLength(2);
  });

  it('tags each post with its delivery id as message metadata', async () => {
    await sender().send(
      { type: 'events', issuer: ACME, events: raises(1) },
      { partsSent: 0, deliveryId: 'd-42' },
    );
    expect(stand.slack.posted[0]?.metadata).toEqual({
      event_type: 'shortwatch_delivery',
      event_payload: { delivery_id: 'd-42' },
    });
  });

  it('posts a batch as one parent per issuer; a backlog delivery carries a second’s worth at the rate', async () => {
    const issuers = Array.from({ length: 3 }, (_, i) => ({ id: `ISS-${10 + i}`, name: `Issuer ${i}` }));
    const batch: Message = {
      type: 'batch',
      groups: issuers.map((issuer) => ({ issuer, events: raises(1, issuer) })),
    };
    await sender().send(batch);
    expect(stand.slack.parents().map((m) => m.text.match(/Issuer \d/)?.[0])).toEqual([
      'Issuer 0',
      'Issuer 1',
      'Issuer 2',
    ]);
    const groups = issuers.map((issuer) => ({ issuer, events: raises(1, issuer) }));
    expect([burstOf(1)(groups), burstOf(2.5)(groups), burstOf(20)(groups)]).toEqual([1, 3, 3]);
  });
});

describe('slack-app corrections: edited in place, or a reply when Slack refuses', () => {
  const [fell, ...heldBack] = flap;

  it('edits the message that told a fall below when the held flap is told, with a note', async () => {
    const desk = sender();
    await desk.send(eventsOf(fell as PositionEvent));
    const [told] = stand.slack.posted;
    await desk.send(eventsOf(...heldBack));
    expect(stand.slack.posted).toHaveLength(1);
    expect(stand.slack.calls.map((c) => c.method)).toEqual(['chat.postMessage', 'chat.update']);
    expect(told?.edits).toBe(1);
    expect(told?.text).toContain('Edited 2 May 07:40');
    const blocks = JSON.stringify(told?.blocks);
    expect(blocks).toContain('corrected with the later changes of Flap Cap');
    // The edited message tells the whole run, as a held flap's one message does: the fall it told, then
    // the held changes.
    expect(blocks).toContain('*Flap Cap* crossed 0.5% 3 times · 0.52% → 0.47% → 0.51% → off the list');
  });

  it('edits a revised aggregate’s earlier message', async () => {
    const aggregate = holderRaise(1);
    const revised: PositionEvent = {
      ...aggregate,
      id: 'ev-revised',
      aggregate: { kind: 'aggregate-revised', thresholdPercent: 0.1, revisedDate: '2024-05-02' },
      detectedAt: '2024-05-02T07:35:00Z',
    };
    const desk = sender();
    await desk.send(eventsOf(aggregate));
    await desk.send(eventsOf(revised));
    expect(stand.slack.calls.map((c) => c.method)).toEqual(['chat.postMessage', 'chat.update']);
  });

  it.each(['edit_window_closed', 'message_not_found', 'cant_update_message'])(
    'replies in the thread, saying what it corrects, when chat.update answers %s',
    async (code) => {
      const desk = sender();
      await desk.send(eventsOf(fell as PositionEvent));
      const [told] = stand.slack.posted;
      if (code === 'edit_window_closed') stand.slack.closeEditWindow(told?.ts ?? '');
      else stand.slack.script('chat.update', { body: { ok: false, error: code } });
      await desk.send(eventsOf(...heldBack));
      expect(told?.edits).toBe(0);
      const [reply, ...more] = stand.slack.replies(told?.ts ?? '');
      expect(more).toEqual([]);
      expect(reply?.text).toContain(`Corrects the earlier message (ts ${told?.ts})`);
      expect(JSON.stringify(reply?.blocks)).toContain('crossed 0.5% 2 times');
    },
  );

  it('parks an edit Slack refuses for another reason', async () => {
    const desk = sender();
    await desk.send(eventsOf(fell as PositionEvent));
    stand.slack.script('chat.update', { body: { ok: false, error: 'invalid_auth' } });
    const error = await failure(desk.send(eventsOf(...heldBack)));
    expect([error.code, error.outcome]).toEqual(['invalid_auth', 'park']);
  });

  it('posts a held change whose first crossing it never told as news in the thread', async () => {
    await sender().send(eventsOf(...heldBack));
    expect(stand.slack.calls.map((c) => c.method)).toEqual(['chat.postMessage']);
  });
});

describe('slack-app direct messages', () => {
  it('looks a user up by e-mail, opens a DM, and remembers it', async () => {
    stand.slack.users.set('ann@example.com', 'U0ANN');
    stand.slack.scopes = 'chat:write,users:read,users:read.email,im:write';
    const dm = sender({ channel: undefined, directMessages: ['ann@example.com'] });
    await expect(dm.verify()).resolves.toContain('Slack app posting to DU0ANN');
    await dm.send({ type: 'events', issuer: ACME, events: raises(1) });
    await sender({ channel: undefined, directMessages: ['ann@example.com'] }).send({
      type: 'events',
      issuer: ACME,
      events: raises(1, ACME, 4),
    });
    expect(stand.slack.calls.map((c) => c.method)).toEqual([
      'auth.test',
      'users.lookupByEmail',
      'conversations.open',
      'chat.postMessage',
      'chat.postMessage',
    ]);
    expect(stand.slack.calls[1]?.args).toEqual({ email: 'ann@example.com' });
    const [parent] = stand.slack.parents();
    expect(parent?.channel).toBe('DU0ANN');
    expect(stand.slack.replies(parent?.ts ?? '')).toHaveLength(1);
  });

  it('names the scopes direct messages need, and parks a user Slack does not know', async () => {
    const dm = sender({ directMessages: ['nobody@example.com'] });
    const scopes = await failure(dm.verify());
    expect(scopes.message).toContain('lacks the scope users:read, users:read.email, im:write');
    const unknown = await failure(dm.send({ type: 'events', issuer: ACME, events: raises(1) }));
    expect([unknown.code, unknown.outcome]).toEqual(['users_not_found', 'park']);
  });

  it('refuses a channel with neither a conversation nor direct messages, naming the key', () => {
    const parsed = channelSchema.safeParse({ name: 'x', kind: 'slack-app', token: TOKEN });
    expect(parsed.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['channel', 'a slack-app channel needs `channel` or `directMessages`'],
    ]);
  });
});

describe('slack-app rate limits per method', () => {
  it('blocks only the method that answered 429, for its Retry-After', async () => {
    let now = 1_000_000;
    const slept: number[] = [];
    const gate = new MethodGate({
      now: () => new Date(now),
      sleep: async (ms) => {
        slept.push(ms);
        now += ms;
      },
    });
    let refusals = 1;
    const update = () => {
      if (refusals-- > 0) throw new DeliveryError('429', { outcome: 'rate-limit', retryAfterMs: 5_000 });
      return Promise.resolve('updated');
    };
    const run = gate.run('chat.update', async () => update());
    await expect(run).resolves.toBe('updated');
    expect(slept).toEqual([5_000]);
    now -= 4_000;
    expect(gate.blockedUntil('chat.update')).toBe(1_005_000);
    expect(gate.blockedUntil('chat.postMessage')).toBeUndefined();
    await expect(gate.run('chat.postMessage', async () => 'posted')).resolves.toBe('posted');
    expect(slept).toEqual([5_000]);
    await gate.run('chat.update', async () => 'again');
    expect(slept).toEqual([5_000, 4_000]);
  });

  it('the stand-in limits each method on its own', async () => {
    stand.slack.limit('chat.update', { max: 1, windowMs: 60_000 });
    const desk = sender();
    await desk.send(eventsOf(raises(1)[0] as PositionEvent));
    await desk.send(eventsOf(raises(1, ACME, 1)[0] as PositionEvent));
    expect(stand.slack.limited.size).toBe(0);
    const [fell, ...heldBack] = flap;
    await desk.send(eventsOf(fell as PositionEvent));
    await desk.send(eventsOf(...heldBack));
    const later = heldBack.map((e) => ({
      ...e,
      id: `${e.id}-again`,
      detectedAt: '2024-05-02T07:39:00.000Z',
    }));
    const error = await failure(desk.send(eventsOf(...later)));
    expect([error.outcome, error.retryAfterMs]).toEqual(['rate-limit', 60_000]);
    expect(stand.slack.limited.get('chat.update')).toBe(1);
  });
});
