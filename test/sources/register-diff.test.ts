import { describe, expect, it } from 'vitest';
import { registerSourceSchema } from '../../src/config/schema/sources.js';
import { diffRegister, isWatched } from '../../src/jobs/registers/register-diff.js';
import type { Snapshot } from '../../src/positions/types.js';
import { issuersFromPositions, snapshotOf } from '../../src/sources/snapshot.js';
import type { RegisterSnapshot } from '../../src/sources/types.js';

const NOW = new Date('2026-07-14T08:00:00.000Z');

function source(extra: Record<string, unknown> = {}) {
  return registerSourceSchema.parse({
    name: 'fca-legacy',
    kind: 'uk-legacy-holders',
    url: 'http://127.0.0.1/x',
    ...extra,
  });
}

/** A read listing `holders` (name → %) per ISIN. */
function read(issuers: Record<string, Record<string, number>>): RegisterSnapshot {
  const rows = Object.entries(issuers).flatMap(([isin, holders]) =>
    Object.entries(holders).map(([holder, percent]) => ({
      isin,
      issuer: `Issuer ${isin}`,
      holder,
      percent,
      date: '2026-07-10',
    })),
  );
  return snapshotOf('uk-legacy-holders', issuersFromPositions(rows), rows.length);
}

/** The snapshots a first read of `snapshot` leaves (a silent baseline of each issuer). */
function baseline(snapshot: RegisterSnapshot, config = source()): Map<string, Snapshot> {
  const first = diffRegister({
    source: config,
    snapshot,
    previous: new Map(),
    now: new Date('2026-07-10T08:00:00.000Z'),
    thresholds: [],
    onFirstSeen: 'baseline',
    alsoCommit: new Set(),
  });
  return new Map(first.issuers.map((issuer) => [issuer.key, issuer.diff.next]));
}

function diff(before: RegisterSnapshot, after: RegisterSnapshot, config = source(), confirmed = false) {
  return diffRegister({
    source: config,
    confirmed,
    snapshot: after,
    previous: baseline(before, config),
    now: NOW,
    thresholds: [],
    onFirstSeen: 'baseline',
    alsoCommit: new Set(),
  });
}

const events = (result: ReturnType<typeof diff>) =>
  result.issuers.flatMap((issuer) =>
    issuer.diff.events.map((e) => `${e.source} ${e.issuer.id} ${e.holder} ${e.kind}`),
  );

const FIVE = Object.fromEntries(
  ['NL0000000001', 'NL0000000002', 'NL0000000003', 'NL0000000004', 'NL0000000005'].map((isin) => [
    isin,
    { 'Marshall Wace LLP': 0.8, 'Citadel Advisors LLC': 0.6 },
  ]),
);

describe('diffRegister: named holders of a register through the API diff', () => {
  it('tells a holder raised and one gone, naming the source and the issuer by ISIN', () => {
    const result = diff(
      read({ NL0000379121: { 'Marshall Wace LLP': 0.7, 'Citadel Advisors LLC': 0.6 } }),
      read({ NL0000379121: { 'Marshall Wace LLP': 0.95 } }),
    );
    expect(events(result)).toEqual([
      'fca-legacy NL0000379121 Citadel Advisors LLC closed',
      'fca-legacy NL0000379121 Marshall Wace LLP increased',
    ]);
    expect(result.drops).toEqual([]);
  });

  it('tells the positions of an issuer new to the register as opened, not as a baseline', () => {
    const before = read({ GB0000000001: { 'Marshall Wace LLP': 0.8 } });
    const after = read({
      GB0000000001: { 'Marshall Wace LLP': 0.8 },
      GB0000000002: { 'Citadel Advisors LLC': 0.6 },
    });
    const listed = (keys: string[]) =>
      diffRegister({
        source: source(),
        snapshot: after,
        previous: baseline(before),
        now: NOW,
        thresholds: [],
        onFirstSeen: 'baseline',
        listedBefore: new Set(keys),
        alsoCommit: new Set(),
      });
    expect(events(listed(['GB0000000001']))).toEqual(['fca-legacy GB0000000002 Citadel Advisors LLC opened']);
    // Listed by the last read but never stored (say, watched since a reload): a baseline.
    expect(events(listed(['GB0000000001', 'GB0000000002']))).toEqual([]);
    // Without a last read (the source's first), every issuer is a baseline.
    expect(events(diff(read({}), after))).toEqual([]);
  });

  it('leaves an issuer whose positions did not move uncommitted', () => {
    const same = read({ NL0000379121: { 'Marshall Wace LLP': 0.7 } });
    expect(diff(same, same).issuers).toEqual([]);
  });

  it('holds most named issuers emptied at once until a confirming read, then tells one regime drop per issuer', () => {
    const unconfirmed = diff(read(FIVE), read({}));
    expect(unconfirmed).toEqual({ issuers: [], drops: [], unconfirmed: { emptied: 5, named: 5 } });
    const result = diff(read(FIVE), read({}), source(), true);
    expect(events(result)).toEqual([]);
    expect(result.regime).toEqual({ by: 'share', emptied: 5, named: 5 });
    expect(result.drops.map((d) => [d.key, d.lastNamedSum, d.closes.length])).toEqual(
      Object.keys(FIVE).map((isin) => [isin, 1.4, 2]),
    );
    // Each drop is still committed (silently), so the next read starts from no named holders.
    expect(result.drops.every((d) => d.silent.diff.events.length === 0)).toBe(true);
    expect(result.drops.every((d) => Object.keys(d.silent.diff.next.positions).length === 0)).toBe(true);
  });

  it('tells one or two issuers emptied as closes even when they are all the source named (fewer than three)', () => {
    const [first = '', second = ''] = Object.keys(FIVE);
    const one = { [first]: FIVE[first] ?? {} };
    const two = { ...one, [second]: FIVE[second] ?? {} };
    for (const named of [one, two]) {
      const result = diff(read(named), read({}), source(), true);
      expect(result.drops).toEqual([]);
      expect(result.unconfirmed).toBeUndefined();
      expect(events(result)).toHaveLength(2 * Object.keys(named).length);
    }
    const three = Object.fromEntries(Object.entries(FIVE).slice(0, 3));
    expect(diff(read(three), read({}), source(), true).drops).toHaveLength(3);
  });

  it('tells five issuers emptied of twelve as closes, confirmed or not (no more than regimeBoundary.share)', () => {
    const twelve: Record<string, Record<string, number>> = { ...FIVE };
    for (let i = 6; i <= 12; i++) twelve[`NL00000000${String(i).padStart(2, '0')}`] = { 'AQR Capital': 0.7 };
    const kept = Object.fromEntries(Object.entries(twelve).filter(([isin]) => !(isin in FIVE)));
    for (const confirmed of [false, true]) {
      const result = diff(read(twelve), read(kept), source(), confirmed);
      expect(result.drops).toEqual([]);
      expect(result.unconfirmed).toBeUndefined();
      expect(events(result)).toHaveLength(10);
    }
    const strict = diff(read(twelve), read(kept), source({ regimeBoundary: { share: 0.4 } }), true);
    expect(strict.drops).toHaveLength(5);
  });

  it('past the calendar (UK: from 2026-07-13), one GB issuer emptied is a regime drop; before it, a close', () => {
    const before = read({ GB0000000001: { 'Marshall Wace LLP': 0.8 }, NL0000000001: { 'AQR Capital': 0.6 } });
    const after = read({ NL0000000001: { 'AQR Capital': 0.6 } });
    const past = diff(before, after);
    expect(past.drops.map((d) => d.key)).toEqual(['GB0000000001']);
    expect(past.regime).toEqual({ by: 'calendar', emptied: 1, named: 2 });
    const earlier = diffRegister({
      source: source(),
      snapshot: after,
      previous: baseline(before),
      now: new Date('2026-07-12T08:00:00.000Z'),
      thresholds: [],
      onFirstSeen: 'baseline',
      alsoCommit: new Set(),
    });
    expect(earlier.drops).toEqual([]);
    expect(events(earlier)).toEqual(['fca-legacy GB0000000001 Marshall Wace LLP closed']);
  });

  it('after namedHoldersUntil, one issuer dropped is a regime drop too', () => {
    const before = read({
      IE0000000001: { 'Marshall Wace LLP': 0.8 },
      IE0000000002: { 'Citadel Advisors LLC': 0.6 },
    });
    const after = read({ IE0000000002: { 'Citadel Advisors LLC': 0.6 } });
    const config = source({ regimeBoundary: { namedHoldersUntil: '2026-07-12' } });
    expect(diff(before, after, config).drops.map((d) => d.key)).toEqual(['IE0000000001']);
    const stillNamed = source({ regimeBoundary: { namedHoldersUntil: '2026-07-14' } });
    expect(diff(before, after, stillNamed).drops).toEqual([]);
  });

  it('after namedHoldersUntil, a holder dropped from an issuer that keeps others is the boundary too, not a close', () => {
    const before = read({ IE0000000001: { 'Marshall Wace LLP': 0.8, 'Citadel Advisors LLC': 0.6 } });
    const after = read({ IE0000000001: { 'Citadel Advisors LLC': 0.7 } });
    const result = diff(before, after, source({ regimeBoundary: { namedHoldersUntil: '2026-07-12' } }));
    expect(events(result)).toEqual([]);
    expect(result.drops.map((d) => [d.key, d.lastNamedSum, d.closes.map((c) => c.holder)])).toEqual([
      ['IE0000000001', 0.8, ['Marshall Wace LLP']],
    ]);
    // What else moved is still told, and the snapshot keeps the holder still named.
    const [drop] = result.drops;
    expect(drop?.silent.diff.events.map((e) => `${e.holder} ${e.kind}`)).toEqual([
      'Citadel Advisors LLC increased',
    ]);
    expect(Object.values(drop?.silent.diff.next.positions ?? {}).map((p) => p.holder)).toEqual([
      'Citadel Advisors LLC',
    ]);
  });

  it('follows only the watched issuers, by ISIN or by name', () => {
    const config = source({ watchlist: ['NL0000000001', 'issuer   nl0000000003'] });
    const citadelOnly = Object.fromEntries(
      Object.keys(FIVE).map((isin) => [isin, { 'Citadel Advisors LLC': 0.6 }]),
    );
    const result = diff(read(FIVE), read(citadelOnly), config);
    expect(result.drops).toEqual([]);
    expect(new Set(result.issuers.map((i) => i.key))).toEqual(new Set(['NL0000000001', 'NL0000000003']));
  });
});

describe('isWatched', () => {
  it.each([
    ['all', 'NL1', 'Randstad N.V.', true],
    [['NL1'], 'NL1', 'Randstad N.V.', true],
    [['randstad  n.v.'], 'NL1', 'Randstad N.V.', true],
    [['NL2', 'Signify'], 'NL1', 'Randstad N.V.', false],
  ] as const)('%j watches %s (%s): %s', (watchlist, key, name, watched) => {
    expect(isWatched(watchlist === 'all' ? 'all' : [...watchlist], { key, name })).toBe(watched);
  });
});
