import { describe, expect, it } from 'vitest';
import { pollReason } from '../../src/jobs/sweep.js';
import type { Snapshot } from '../../src/positions/index.js';

const NOW = Date.parse('2026-01-05T12:00:00.000Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const GATED = { gate: true, maxStalenessMs: 6 * HOUR, intervalMs: 30 * MIN };
const UNGATED = { ...GATED, gate: false };

function snapshot(polledAgoMs: number, lastUpdated: string | null): Snapshot {
  return {
    issuerId: 'ISS-0001',
    issuerName: 'Borealis Mining plc',
    positions: {},
    lastUpdated,
    polledAt: new Date(NOW - polledAgoMs).toISOString(),
  };
}

const T1 = '2026-01-05T08:00:00.000Z';
const T2 = '2026-01-05T09:00:00.000Z';

describe('pollReason', () => {
  it.each([
    { name: 'no snapshot yet', snap: undefined, list: T1, policy: GATED, reason: 'new' },
    { name: 'no snapshot, gate off', snap: undefined, list: null, policy: UNGATED, reason: 'new' },
    { name: 'gate: the dataset moved', snap: snapshot(MIN, T1), list: T2, policy: GATED, reason: 'changed' },
    {
      name: 'gate: same version, fresh',
      snap: snapshot(MIN, T1),
      list: T1,
      policy: GATED,
      reason: undefined,
    },
    {
      name: 'gate: same version written differently is the same instant',
      snap: snapshot(MIN, '2026-01-05T08:00:00Z'),
      list: '2026-01-05T09:00:00+01:00',
      policy: GATED,
      reason: undefined,
    },
    {
      name: 'gate: the list went backwards (a replica lagging): nothing new',
      snap: snapshot(MIN, T2),
      list: T1,
      policy: GATED,
      reason: undefined,
    },
    {
      name: 'gate: same version but older than maxStaleness',
      snap: snapshot(6 * HOUR, T1),
      list: T1,
      policy: GATED,
      reason: 'stale',
    },
    {
      name: 'gate: just under maxStaleness',
      snap: snapshot(6 * HOUR - 1, T1),
      list: T1,
      policy: GATED,
      reason: undefined,
    },
    {
      name: 'gate: the snapshot never saw a version',
      snap: snapshot(MIN, null),
      list: T1,
      policy: GATED,
      reason: 'changed',
    },
    {
      name: 'gate: an unreadable stored version counts as changed',
      snap: snapshot(MIN, 'not a date'),
      list: T1,
      policy: GATED,
      reason: 'changed',
    },
    {
      name: 'gate on but the list has no last_updated: the interval rules',
      snap: snapshot(29 * MIN, T1),
      list: null,
      policy: GATED,
      reason: 'interval',
    },
    {
      name: 'gate on, no last_updated, polled recently',
      snap: snapshot(10 * MIN, T1),
      list: null,
      policy: GATED,
      reason: undefined,
    },
    {
      name: 'gate off: at 95% of the interval',
      snap: snapshot(0.95 * 30 * MIN, T1),
      list: T2,
      policy: UNGATED,
      reason: 'interval',
    },
    {
      name: 'gate off: just under 95% of the interval, even if the dataset moved',
      snap: snapshot(0.95 * 30 * MIN - 1, T1),
      list: T2,
      policy: UNGATED,
      reason: undefined,
    },
  ])('$name → $reason', ({ snap, list, policy, reason }) => {
    expect(pollReason(snap, list, NOW, policy)).toBe(reason);
  });
});
