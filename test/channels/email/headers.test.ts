import { describe, expect, it } from 'vitest';
import { deliveryFields } from '../../../src/channels/email/headers.js';
import { listId } from '../../../src/channels/email/list-id.js';
import { threadDay, threadRootId } from '../../../src/channels/email/thread.js';
import type { Message } from '../../../src/channels/types.js';
import { ACME, makeEvent } from './fixtures.js';

const FROM = 'Shortwatch <alerts@desk.example>';
const CHANNEL = { name: 'my-watchlist', from: FROM };

describe('listId', () => {
  it.each([
    { name: 'a plain name', channel: 'desk', expected: '"shortwatch: desk" <desk.shortwatch.desk.example>' },
    {
      name: 'spaces and capitals',
      channel: 'Morning Digest',
      expected: '"shortwatch: Morning Digest" <morning-digest.shortwatch.desk.example>',
    },
    {
      name: 'quotes and backslashes are escaped in the phrase',
      channel: 'a "b" \\c',
      expected: '"shortwatch: a \\"b\\" \\\\c" <a-b-c.shortwatch.desk.example>',
    },
    {
      name: 'CR LF never reaches the header',
      channel: 'x\r\nBcc: y@z',
      expected: '"shortwatch: x Bcc: y@z" <x-bcc-y-z.shortwatch.desk.example>',
    },
    {
      name: 'nothing usable left: a hash, also as the (ASCII-only) phrase',
      channel: 'ééé',
      expected: '"shortwatch: channel-355b7226e20c" <channel-355b7226e20c.shortwatch.desk.example>',
    },
  ])('$name', ({ channel, expected }) => {
    expect(listId(channel, FROM)).toBe(expected);
  });
});

describe('thread', () => {
  it.each([
    { name: 'one event', at: ['2026-11-23T08:45:00.000Z'], day: '2026-11-23' },
    {
      name: 'the newest counts',
      at: ['2026-11-23T23:59:00.000Z', '2026-11-24T00:01:00.000Z'],
      day: '2026-11-24',
    },
    {
      name: 'an offset is read as the instant it is',
      at: ['2026-11-24T00:30:00.000+01:00'],
      day: '2026-11-23',
    },
    { name: 'no events', at: [], day: undefined },
  ])('threadDay: $name', ({ at, day }) => {
    expect(threadDay(at.map((detectedAt, i) => makeEvent({ id: `e${i}`, detectedAt })))).toBe(day);
  });

  it('the root is stable per (channel, issuer, day) and differs when any of them does', () => {
    const root = threadRootId('desk', 'ISS-1', '2026-11-23', FROM);
    expect(root).toMatch(/^<thread\.2026-11-23\.[0-9a-f]{32}@desk\.example>$/);
    expect(threadRootId('desk', 'ISS-1', '2026-11-23', FROM)).toBe(root);
    const others = [
      threadRootId('desk2', 'ISS-1', '2026-11-23', FROM),
      threadRootId('desk', 'ISS-2', '2026-11-23', FROM),
      threadRootId('desk', 'ISS-1', '2026-11-24', FROM),
    ];
    expect(new Set([root, ...others]).size).toBe(4);
  });
});

describe('deliveryFields', () => {
  const events: Message = { type: 'events', issuer: ACME, events: [makeEvent()] };
  const root = threadRootId('my-watchlist', 'ISS-1', '2024-11-20', FROM);
  const common = {
    'X-Shortwatch-Message': 'events',
    'Auto-Submitted': 'auto-generated',
    'List-Id': {
      prepared: true,
      value: '"shortwatch: my-watchlist" <my-watchlist.shortwatch.desk.example>',
    },
  };

  it.each([
    {
      name: 'an alert: Message-ID from its delivery, in the thread of its issuer and day',
      message: events,
      deliveryId: 'dlv-1',
      expected: {
        headers: { ...common, 'X-Shortwatch-Delivery': 'dlv-1' },
        messageId: '<dlv-1@desk.example>',
        inReplyTo: root,
        references: root,
      },
    },
    {
      name: 'a digest stands alone',
      message: { type: 'digest', period: { from: 'a', to: 'b', timezone: 'UTC' }, events: [makeEvent()] },
      deliveryId: 'batch-1',
      expected: {
        headers: { ...common, 'X-Shortwatch-Message': 'digest', 'X-Shortwatch-Delivery': 'batch-1' },
        messageId: '<batch-1@desk.example>',
      },
    },
    {
      name: 'a test message (no delivery) has no id of ours',
      message: { type: 'test', channel: 'my-watchlist', sentAt: '2024-11-20T07:31:00.000Z' },
      deliveryId: undefined,
      expected: { headers: { ...common, 'X-Shortwatch-Message': 'test' } },
    },
  ] satisfies { name: string; message: Message; deliveryId: string | undefined; expected: unknown }[])(
    '$name',
    ({ message, deliveryId, expected }) => {
      const progress = deliveryId === undefined ? undefined : { partsSent: 0, deliveryId };
      expect(deliveryFields(message, CHANNEL, progress)).toEqual(expected);
    },
  );
});
