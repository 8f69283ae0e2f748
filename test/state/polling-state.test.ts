import { describe, expect, it } from 'vitest';
import type { IssuerHealth } from '../../src/state/poll-health.js';
import { failureBackoffMs, mayPoll, pollingState } from '../../src/state/polling-state.js';

const NOW = Date.parse('2026-03-03T10:00:00.000Z');
const MIN = 60_000;
const V1 = '2026-03-03T09:00:00.000Z';
const V2 = '2026-03-03T09:30:00.000Z';

function failing(cause: 'server' | 'bad-request', retryInMs: number, version: string | null): IssuerHealth {
  return {
    failing: {
      since: V1,
      count: 3,
      cause,
      message: 'x',
      byCause: { [cause]: 3 },
      retryAt: NOW + retryInMs,
      version,
    },
  };
}

const cases: Array<{
  name: string;
  health?: IssuerHealth;
  snapshot?: boolean;
  list?: string | null;
  state: string;
  polls: boolean;
}> = [
  { name: 'no snapshot', snapshot: false, state: 'new', polls: true },
  { name: 'a snapshot, nothing recorded', state: 'current', polls: true },
  { name: 'planned, not polled yet', health: { dueSince: V1 }, state: 'due', polls: true },
  { name: 'a list without a version', list: null, state: 'blind', polls: true },
  { name: 'a 5xx backing off', health: failing('server', 30 * MIN, V2), state: 'failing', polls: false },
  {
    name: 'a 5xx whose backoff ends within half an interval',
    health: failing('server', MIN, V2),
    state: 'failing',
    polls: true,
  },
  {
    name: 'a 5xx and a newer dataset version: one early try',
    health: failing('server', 30 * MIN, V1),
    state: 'failing',
    polls: true,
  },
  {
    name: 'a 400 and a newer dataset version: no early try',
    health: failing('bad-request', 30 * MIN, V1),
    state: 'failing',
    polls: false,
  },
  {
    name: 'a 404 backing off',
    health: { notFound: { since: V1, count: 2, retryAt: NOW + 30 * MIN } },
    state: 'not-found',
    polls: false,
  },
  {
    name: 'lagging, its next try to come',
    health: { lagging: { since: V1, count: 2, answered: V1, expected: V2, retryAt: NOW + 30 * MIN } },
    state: 'lagging',
    polls: false,
  },
  {
    name: 'lagging, the list moved past the version it fell short of',
    health: { lagging: { since: V1, count: 2, answered: V1, expected: V1, retryAt: NOW + 30 * MIN } },
    state: 'lagging',
    polls: true,
  },
  {
    name: 'lagging, at the next gate check',
    health: { lagging: { since: V1, count: 1, answered: V1, expected: V2, retryAt: NOW + MIN } },
    state: 'lagging',
    polls: true,
  },
];

describe('the polling state of one issuer', () => {
  it.each(cases)('$name: $state', ({ health, snapshot, list, state, polls }) => {
    const decided = pollingState({
      health,
      hasSnapshot: snapshot ?? true,
      listVersion: list === undefined ? V2 : list,
      nowMs: NOW,
      intervalMs: 4 * MIN,
    });
    expect(decided.state).toBe(state);
    expect(mayPoll(decided)).toBe(polls);
  });

  it('backs off from one sweep interval, doubling, up to the hard bound', () => {
    const backoff = [1, 2, 3, 4, 12].map((count) => failureBackoffMs(count, 2 * MIN, 24 * 60 * MIN) / MIN);
    expect(backoff).toEqual([2, 4, 8, 16, 24 * 60]);
  });
});
