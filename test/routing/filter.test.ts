import { describe, expect, it } from 'vitest';
import type { ChannelFilter } from '../../src/config/schema.js';
import type { PositionEvent } from '../../src/positions/types.js';
import { crosses, matchFilter } from '../../src/routing/filter.js';
import { makeEvent } from './events.js';

const closed = makeEvent({
  kind: 'closed',
  previous: { value: 0.55, date: '2026-03-02' },
  current: null,
  final: { value: 0.42, date: '2026-03-03' },
  delta: -0.55,
  issuerTotal: { before: 2.05, after: 1.5 },
});
const opened = makeEvent({
  kind: 'opened',
  previous: null,
  current: { value: 0.5, date: '2026-03-03' },
  delta: 0.5,
  issuerTotal: { before: 0.7, after: 1.2 },
});

interface Case {
  name: string;
  event?: PositionEvent;
  filter: ChannelFilter;
  reason?: string;
}

const cases: Case[] = [
  { name: 'empty filter passes everything', filter: {} },
  { name: 'empty lists restrict nothing', filter: { issuers: [], holders: [], kinds: [], thresholds: [] } },
  { name: 'issuer by exact id', filter: { issuers: ['ISS-ACME'] } },
  {
    name: 'issuer id is case-sensitive',
    filter: { issuers: ['iss-acme'] },
    reason: 'issuer "Acme  Plc" (ISS-ACME) not in issuers',
  },
  { name: 'issuer by name, case and spaces ignored', filter: { issuers: ['  acme PLC '] } },
  { name: 'issuer by name needs the whole name', filter: { issuers: ['Acme'] }, reason: 'not in issuers' },
  { name: 'issuer among several', filter: { issuers: ['Other', 'ISS-ACME'] } },
  { name: 'holder by exact key', filter: { holders: ['Marshall Wace LLP'] } },
  { name: 'holder spelling variant', filter: { holders: ['Marshall-Wace, L.L.P.'] } },
  { name: 'holder key prefix (legal suffix left off)', filter: { holders: ['marshall wace'] } },
  {
    name: 'holder longer than the reported name',
    filter: { holders: ['Marshall Wace LLP London'] },
    reason: 'holder "MARSHALL WACE LLP" not in holders',
  },
  {
    name: 'holder entry of punctuation only matches nothing',
    filter: { holders: ['...'] },
    reason: 'not in holders',
  },
  {
    name: 'holder not listed',
    filter: { holders: ['Citadel'] },
    reason: 'holder "MARSHALL WACE LLP" not in holders',
  },
  {
    name: 'excluded holder by variant',
    filter: { excludeHolders: ['MARSHALL WACE'] },
    reason: 'holder "MARSHALL WACE LLP" in excludeHolders ("MARSHALL WACE")',
  },
  { name: 'other holder excluded', filter: { excludeHolders: ['Citadel'] } },
  { name: 'kind listed', filter: { kinds: ['opened', 'increased'] } },
  {
    name: 'kind not listed',
    filter: { kinds: ['opened', 'closed'] },
    reason: 'kind increased not in kinds (opened, closed)',
  },
  { name: 'minValue met by the new value', filter: { minValue: 0.8 } },
  { name: 'minValue missed', filter: { minValue: 0.9 }, reason: 'value 0.8% below minValue 0.9' },
  {
    name: 'minValue met by the previous value of a decrease',
    event: makeEvent({
      kind: 'decreased',
      previous: { value: 1.1, date: '2026-03-02' },
      current: { value: 0.7, date: '2026-03-03' },
      delta: -0.4,
    }),
    filter: { minValue: 1 },
  },
  { name: 'minValue on closed uses previous, not final', event: closed, filter: { minValue: 0.55 } },
  {
    name: 'minValue on closed missed',
    event: closed,
    filter: { minValue: 0.6 },
    reason: 'value 0.55% below minValue 0.6',
  },
  { name: 'minValue on opened', event: opened, filter: { minValue: 0.5 } },
  { name: 'minDelta met exactly', filter: { minDelta: 0.2 } },
  {
    name: 'minDelta met despite float noise',
    event: makeEvent({ delta: 0.1 + 0.2 }),
    filter: { minDelta: 0.3 },
  },
  {
    name: 'minDelta missed',
    event: makeEvent({ delta: 0.05 }),
    filter: { minDelta: 0.1 },
    reason: 'delta 0.05 pp below minDelta 0.1',
  },
  { name: 'minDelta uses the absolute change', event: closed, filter: { minDelta: 0.5 } },
  { name: 'threshold crossed upward', filter: { thresholds: [0.75] } },
  { name: 'threshold reached exactly counts', filter: { thresholds: [0.8] } },
  {
    name: 'threshold at the old value is not crossed',
    filter: { thresholds: [0.6] },
    reason: 'position 0.6% → 0.8% crosses none of thresholds 0.6',
  },
  {
    name: 'threshold crossed downward by a close (current counts as 0)',
    event: closed,
    filter: { thresholds: [0.5] },
  },
  {
    name: 'threshold crossed by an open (previous counts as 0)',
    event: opened,
    filter: { thresholds: [0.5] },
  },
  {
    name: 'no threshold crossed',
    filter: { thresholds: [1, 2] },
    reason: 'position 0.6% → 0.8% crosses none of thresholds 1, 2',
  },
  { name: 'issuer total crosses upward', filter: { issuerTotalThresholds: [2] } },
  { name: 'issuer total crosses downward', event: closed, filter: { issuerTotalThresholds: [1, 2] } },
  {
    name: 'issuer total crosses nothing',
    filter: { issuerTotalThresholds: [1, 5] },
    reason: 'issuer total 1.8% → 2% crosses none of issuerTotalThresholds 1, 5',
  },
  {
    name: 'combined filter passes',
    filter: {
      issuers: ['acme plc'],
      holders: ['Marshall Wace'],
      kinds: ['increased'],
      minValue: 0.5,
      minDelta: 0.1,
      thresholds: [0.75],
    },
  },
  {
    name: 'combined filter reports the first failing rule',
    filter: { issuers: ['ISS-ACME'], kinds: ['opened'], minValue: 5 },
    reason: 'kind increased not in kinds (opened)',
  },
  {
    name: 'combined filter fails on a size rule after party rules pass',
    filter: { holders: ['marshall wace'], minDelta: 0.5 },
    reason: 'delta 0.2 pp below minDelta 0.5',
  },
];

describe('matchFilter', () => {
  it.each(cases)('$name', ({ event, filter, reason }) => {
    const result = matchFilter(event ?? makeEvent(), filter);
    if (reason === undefined) {
      expect(result).toEqual({ pass: true });
    } else {
      expect(result.pass).toBe(false);
      expect(result.pass ? '' : result.reason).toContain(reason);
    }
  });
});

describe('crosses', () => {
  it.each([
    { name: 'up through', from: 0.4, to: 0.6, t: 0.5, expected: true },
    { name: 'down through', from: 0.6, to: 0.4, t: 0.5, expected: true },
    { name: 'up onto', from: 0.4, to: 0.5, t: 0.5, expected: true },
    { name: 'down onto is not below', from: 0.6, to: 0.5, t: 0.5, expected: false },
    { name: 'down from exactly', from: 0.5, to: 0.4, t: 0.5, expected: true },
    { name: 'up from exactly', from: 0.5, to: 0.6, t: 0.5, expected: false },
    { name: 'float noise reaches', from: 0.1, to: 0.1 + 0.2, t: 0.3, expected: true },
    { name: 'unchanged', from: 0.5, to: 0.5, t: 0.5, expected: false },
  ])('$name', ({ from, to, t, expected }) => {
    expect(crosses(from, to, t)).toBe(expected);
  });
});
