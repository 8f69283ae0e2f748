import { describe, expect, it } from 'vitest';
import { broadcasts } from '../../../src/channels/slack-app/broadcast.js';
import type { ChannelSender } from '../../../src/channels/types.js';
import { channelSchema } from '../../../src/config/schema.js';
import type { EventKind, PositionEvent } from '../../../src/positions/types.js';
import { eventsOf, flap, holderRaise } from '../story-fixtures.js';
import { useSlackAppStand } from './stand.js';

const TOKEN = 'xoxb-9999-0000-BroadcastToken';
const CHANNEL = 'C0DESK03';
const NOW = () => new Date('2024-05-02T07:40:00Z');

const stand = useSlackAppStand(TOKEN, CHANNEL, 'slack-broadcast', NOW);

function sender(broadcast?: Record<string, unknown>): ChannelSender {
  return stand.sender({ config: { ratePerSecond: 100, ...(broadcast === undefined ? {} : { broadcast }) } });
}

/** Holder `i` of Acme moving by `delta` pp with `kind`. */
function moved(
  i: number,
  delta: number,
  kind: EventKind = delta < 0 ? 'decreased' : 'increased',
): PositionEvent {
  return { ...holderRaise(i), id: `ev-moved-${i}-${delta}-${kind}`, kind, delta };
}

/** Sends a first message (the thread's parent) then each reply; what each post asked and got. */
async function thread(desk: ChannelSender, first: PositionEvent, replies: PositionEvent[]) {
  await desk.send(eventsOf(first));
  for (const reply of replies) await desk.send(eventsOf(reply));
  return {
    asked: stand.slack.calls.map((call) => call.args.reply_broadcast),
    stored: stand.slack.posted.map((m) => [m.thread_ts === undefined ? 'parent' : 'reply', m.subtype]),
  };
}

describe('slack-app broadcast: a reply of a large enough move also goes to the channel', () => {
  it.each([
    [
      'no broadcast (the default): every reply stays in its thread',
      undefined,
      [undefined, undefined, undefined],
    ],
    ['minDelta 1: a move of 1 pp or more up or down, not 0.3', { minDelta: 1 }, [undefined, true, true]],
    ['minDelta 1.5: neither', { minDelta: 1.5 }, [undefined, undefined, undefined]],
    ['kinds [decreased]: the fall only', { kinds: ['decreased'] }, [undefined, undefined, true]],
  ])('%s', async (_, rule, asked) => {
    // A parent of 2 pp (never broadcast: it is in the channel), a reply of 0.3 pp, of +1.2 pp, of -1 pp.
    const desk = sender(rule);
    const result = await thread(desk, moved(0, 2), [moved(1, 0.3), moved(2, 1.2), moved(3, -1)]);
    expect(result.asked).toEqual([undefined, ...asked]);
    expect(result.stored).toEqual([
      ['parent', undefined],
      ...asked.map((b) => ['reply', b === true ? 'thread_broadcast' : undefined]),
    ]);
  });

  it('broadcasts a correction posted as a reply when Slack would not edit, by its own move', async () => {
    const [fell, ...heldBack] = flap;
    const desk = sender({ kinds: ['closed'] });
    await desk.send(eventsOf(fell as PositionEvent));
    const [told] = stand.slack.posted;
    stand.slack.closeEditWindow(told?.ts ?? '');
    await desk.send(eventsOf(...heldBack));
    const [reply] = stand.slack.replies(told?.ts ?? '');
    expect(reply?.text).toContain('Corrects the earlier message');
    expect(reply?.subtype).toBe('thread_broadcast');
  });

  it('counts a move at the threshold, at four decimals, either way', () => {
    const rule = { minDelta: 0.5 };
    expect([0.5, -0.5, 0.49995, 0.4999, -0.4999].map((delta) => broadcasts([moved(0, delta)], rule))).toEqual(
      [true, true, true, false, false],
    );
    expect(broadcasts([moved(0, 9)], undefined)).toBe(false);
  });

  it('refuses a broadcast with neither minDelta nor kinds, or a negative move, naming the key', () => {
    const issues = (broadcast: unknown) =>
      channelSchema
        .safeParse({ name: 'x', kind: 'slack-app', token: TOKEN, channel: CHANNEL, broadcast })
        .error?.issues.map((i) => i.path.join('.'));
    expect(issues({})).toEqual(['broadcast']);
    expect(issues({ kinds: [] })).toEqual(['broadcast']);
    expect(issues({ minDelta: -1 })).toEqual(['broadcast.minDelta']);
    expect(issues({ kinds: ['sold'] })).toEqual(['broadcast.kinds.0']);
    expect(issues({ minDelta: 1, kinds: ['closed'] })).toBeUndefined();
  });
});

describe('the stand-in: reply_broadcast', () => {
  it('refuses one that is not on a reply, or not a boolean', async () => {
    const post = async (args: Record<string, unknown>) => {
      const response = await fetch(`${stand.apiUrl}/chat.postMessage`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ channel: CHANNEL, text: 'x', blocks: [], ...args }),
      });
      return ((await response.json()) as { error?: string }).error;
    };
    expect(await post({ reply_broadcast: true })).toBe('invalid_arguments');
    await post({});
    const [parent] = stand.slack.posted;
    expect(await post({ thread_ts: parent?.ts, reply_broadcast: 'yes' })).toBe('invalid_arguments');
    expect(await post({ thread_ts: parent?.ts, reply_broadcast: true })).toBeUndefined();
  });
});
