import { describe, expect, it } from 'vitest';
import { keyRoot } from '../../src/state/keys.js';
import { Outbox } from '../../src/state/outbox.js';
import { inflightSchema, outboxItemSchema, recordJson } from '../../src/state/outbox-records.js';
import { slackText, startStack, usePerTest, waitFor } from './harness.js';

// Finding 7 of issue 20: an in-flight record this code could not read wedged its channel (every claim
// answered `busy`, nothing sent, no log line, no notice), and an unreadable waiting item stayed in the
// queue for ever. Now each is set aside with its exact bytes, a notice says so, and the channel goes on.

const GARBLED = Buffer.from([0x7b, 0xff, 0xfe, 0x00, 0x22, 0x76]);
const NEWER = JSON.stringify({ v: 99, kind: 'event', event: { id: 'e-from-the-future' } });

describe('unreadable outbox records', () => {
  const current = usePerTest();

  it('are set aside with their bytes and a notice, and the channel sends the next message', async () => {
    const stack = await startStack({ channels: ['slack', 'ops'] });
    current.stack = stack;
    const { redis } = stack.redis;
    const box = stack.keys.outbox('desk');
    // A record from another version in flight, and three waiting entries nothing can send.
    await redis.set(box.inflight, GARBLED);
    await redis.hset(box.items, 'newer', NEWER, 'not-json', '{"kind":"event",');
    await redis.zadd(box.pending, 0, 'newer', 0, 'not-json', 0, 'ghost');
    const outbox = new Outbox(redis, keyRoot(stack.prefix));
    await outbox.enqueue('desk', 'n-after-the-wedge', {
      type: 'notice',
      key: 'probe',
      severity: 'info',
      title: 'After the wedge',
      text: 'sent once the unreadable records are out of the way',
    });

    const app = await stack.openApp();
    current.app = app;
    await app.startDaemon({ workerOnly: false });
    const desk = () => stack.slack.delivered().filter((p) => !p.path.endsWith('/ops'));
    await waitFor('the message behind the unreadable ones', () => desk().length > 0, 20_000);
    expect(slackText(desk()[0]?.payload)).toContain('After the wedge');

    const kept = await outbox.unreadable('desk');
    const byKind = (prefix: string) =>
      Object.entries(kept)
        .filter(([field]) => field.startsWith(prefix))
        .map(([, bytes]) => bytes.toString('hex'));
    expect(byKind('inflight:')).toEqual([GARBLED.toString('hex')]);
    expect(byKind('item:newer:')).toEqual([Buffer.from(NEWER).toString('hex')]);
    expect(byKind('item:not-json:')).toEqual([Buffer.from('{"kind":"event",').toString('hex')]);
    expect(Object.keys(kept)).toHaveLength(3);
    expect(await redis.zcard(box.pending)).toBe(0);
    expect(await redis.hlen(box.items)).toBe(0);

    const notices = await app.ctx.notices.list();
    expect(notices.map((n) => n.key)).toContain('outbox-unreadable-desk');
    await waitFor('the notice on the ops channel', () =>
      stack.slack
        .delivered()
        .some(
          (p) =>
            p.path.endsWith('/ops') && slackText(p.payload).includes('Unreadable outbox records of desk'),
        ),
    );
  }, 60_000);

  // Issue 29: in a rolling upgrade an older process sets aside what a newer one wrote; nothing read those
  // records again once every process ran the newer version.
  it('set aside by an older process are queued again once this version reads them, and sent', async () => {
    const stack = await startStack({ channels: ['slack'] });
    current.stack = stack;
    const { redis } = stack.redis;
    const box = stack.keys.outbox('desk');
    const notice = (title: string) => ({
      type: 'notice' as const,
      key: 'upgrade',
      severity: 'info' as const,
      title,
      text: 'written by a newer process, set aside by an older one',
    });
    const item = recordJson(outboxItemSchema, {
      kind: 'message',
      deliveryId: 'd-waiting',
      message: notice('Waiting when set aside'),
    });
    const inflight = recordJson(inflightSchema, {
      deliveryId: 'd-in-flight',
      message: notice('In flight when set aside'),
      eventIds: [],
      attempts: 1,
      partsSent: 0,
      nextAttemptAt: 0,
      claimedAt: 0,
    });
    await redis.hset(
      box.unreadable,
      'item:d-waiting:1700000000000',
      item,
      'inflight:1700000000001',
      inflight,
    );
    await redis.hset(box.unreadable, 'item:still-newer:1700000000002', NEWER);

    const app = await stack.openApp();
    current.app = app;
    await app.startDaemon({ workerOnly: false });
    const texts = () => stack.slack.delivered().map((p) => slackText(p.payload));
    await waitFor('both records sent', () => texts().length >= 2, 20_000);
    expect(texts().some((t) => t.includes('Waiting when set aside'))).toBe(true);
    expect(texts().some((t) => t.includes('In flight when set aside'))).toBe(true);
    // What this version cannot read either stays set aside, untouched.
    expect(Object.keys(await redis.hgetall(box.unreadable))).toEqual(['item:still-newer:1700000000002']);
  }, 60_000);
});
