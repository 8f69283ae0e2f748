import { describe, expect, it } from 'vitest';
import { type EventIdParts, eventId, FIRST_SIGHT, snapshotOccurrence } from '../../src/positions/event-id.js';

const base: EventIdParts = {
  issuerId: 'ISS-1',
  holderKey: 'citadel',
  from: '3@2024-06-01T09:00:00.000Z',
  kind: 'increased',
  previous: { value: 0.8, date: '2024-05-01' },
  current: { value: 1.25, date: '2024-06-01' },
};

describe('eventId', () => {
  it('is e + 32 lower-case hex digits, never all digits and without ":"', () => {
    expect(eventId(base)).toMatch(/^e[0-9a-f]{32}$/);
  });

  it('is pinned: a change of the canonical form would break replays across an upgrade', () => {
    // printf '%s' '["ISS-1","citadel","3@2024-06-01T09:00:00.000Z","increased",[0.8,"2024-05-01"],[1.25,"2024-06-01"]]' | sha256sum
    expect(eventId(base)).toBe('e619e616401d4a38e5eb4ff96018f0e20');
  });

  it.each([
    { name: 'issuer', change: { issuerId: 'ISS-2' } },
    { name: 'holder key', change: { holderKey: 'citadelllc' } },
    { name: 'snapshot it moved from', change: { from: '4@2024-06-01T09:05:00.000Z' } },
    { name: 'kind', change: { kind: 'decreased' as const } },
    { name: 'previous value', change: { previous: { value: 0.81, date: '2024-05-01' } } },
    { name: 'previous date', change: { previous: { value: 0.8, date: '2024-05-02' } } },
    { name: 'current value', change: { current: { value: 1.2501, date: '2024-06-01' } } },
    { name: 'current null', change: { current: null } },
    { name: 'previous null', change: { previous: null } },
  ])('changes with the $name', ({ change }) => {
    expect(eventId({ ...base, ...change })).not.toBe(eventId(base));
  });

  it.each([
    { name: 'float noise', change: { current: { value: 1.2500000000000002, date: '2024-06-01' } } },
    { name: 'digits past the 4th decimal', change: { previous: { value: 0.800001, date: '2024-05-01' } } },
  ])('ignores $name', ({ change }) => {
    expect(eventId({ ...base, ...change })).toBe(eventId(base));
  });

  it.each([
    { name: 'no snapshot', snapshot: null, expected: FIRST_SIGHT },
    {
      name: 'a snapshot written before the counter',
      snapshot: { polledAt: '2024-06-01T09:00:00.000Z' },
      expected: '0@2024-06-01T09:00:00.000Z',
    },
    {
      name: 'a counted snapshot',
      snapshot: { generation: 7, polledAt: '2024-06-01T09:00:00.000Z' },
      expected: '7@2024-06-01T09:00:00.000Z',
    },
  ])('the occurrence of $name', ({ snapshot, expected }) => {
    expect(snapshotOccurrence(snapshot)).toBe(expected);
  });
});
