import { describe, expect, it } from 'vitest';
import { messageForGroups } from '../../../src/channels/coalesced-message.js';
import { coalesceSlack, renderSlack, type SlackRenderOptions } from '../../../src/channels/slack/index.js';
import type { IssuerEvents } from '../../../src/channels/types.js';
import type { PositionEvent } from '../../../src/positions/types.js';

function event(issuer: IssuerEvents['issuer'], holder: string): PositionEvent {
  return {
    id: `ev-${issuer.id}-${holder}`,
    kind: 'increased',
    issuer,
    holderKey: holder.toLowerCase(),
    holder,
    previous: { value: 0.95, date: '2024-04-30' },
    current: { value: 1.1, date: '2024-05-02' },
    delta: 0.15,
    thresholdsCrossed: [1],
    issuerTotal: { before: 3.4, after: 3.55 },
    detectedAt: '2024-05-02T07:31:00.000Z',
  };
}

/** Issuer `i` with `count` events of long-named holders. */
function group(i: number, count = 1): IssuerEvents {
  const issuer = { id: `ISS-${i}`, name: `Issuer ${i} Holdings plc` };
  const events = Array.from({ length: count }, (_, j) =>
    event(issuer, `Holder ${i}-${j} Capital Management & Co LLP`),
  );
  return { issuer, events };
}

const groups = (count: number, eventsEach = 1) =>
  Array.from({ length: count }, (_, i) => group(i, eventsEach));

function payloadCount(of: readonly IssuerEvents[], options: SlackRenderOptions = {}): number {
  return renderSlack(messageForGroups(of), options).length;
}

describe('coalesceSlack', () => {
  it.each([
    { name: 'no groups', input: [], expected: 0 },
    { name: 'one group', input: groups(1), expected: 1 },
    { name: 'three small groups all fit', input: groups(3), expected: 3 },
    { name: 'a lone issuer too big for one payload still goes', input: [group(0, 120)], expected: 1 },
    {
      name: 'a first issuer too big for one payload goes alone',
      input: [group(0, 120), group(1)],
      expected: 1,
    },
    { name: 'a big second issuer waits for the next message', input: [group(0), group(1, 120)], expected: 1 },
    {
      name: 'stops before the issuer that would not fit',
      input: [group(0), group(1), group(2, 120), group(3)],
      expected: 2,
    },
  ])('$name → $expected', ({ input, expected }) => {
    expect(coalesceSlack(input)).toBe(expected);
  });

  it.each([
    { name: 'without a mention', options: {} },
    { name: 'with a mention', options: { mention: '<!here> <@U123>' } },
  ])('300 small issuers: the largest k whose message is exactly one payload ($name)', ({ options }) => {
    const waiting = groups(300);
    const k = coalesceSlack(waiting, options);
    expect(k).toBeGreaterThan(1);
    expect(k).toBeLessThan(300);
    expect(payloadCount(waiting.slice(0, k), options)).toBe(1);
    expect(payloadCount(waiting.slice(0, k + 1), options)).toBeGreaterThan(1);
  });

  it('300 issuers with several events each: the largest k whose message is one payload', () => {
    const waiting = groups(300, 4);
    const k = coalesceSlack(waiting);
    expect(k).toBeGreaterThan(1);
    expect(payloadCount(waiting.slice(0, k))).toBe(1);
    expect(payloadCount(waiting.slice(0, k + 1))).toBeGreaterThan(1);
  });

  it('the first k is not one payload only when k is 1 and the lone issuer splits', () => {
    const waiting = [group(0, 120), ...groups(5)];
    expect(coalesceSlack(waiting)).toBe(1);
    expect(payloadCount(waiting.slice(0, 1))).toBeGreaterThan(1);
  });
});
