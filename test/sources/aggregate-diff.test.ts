import { describe, expect, it } from 'vitest';
import { aggregateEventsSchema } from '../../src/config/schema/sources.js';
import { isWatched } from '../../src/jobs/registers/register-diff.js';
import { diffAggregates } from '../../src/sources/aggregate-diff.js';
import type { AggregateEvent } from '../../src/sources/aggregate-events.js';
import { REGISTER_READERS } from '../../src/sources/registers.js';
import { namedPosition, snapshotOf } from '../../src/sources/snapshot.js';
import { joinSwedish } from '../../src/sources/sweden-join.js';
import type { RegisterIssuer, RegisterSnapshot } from '../../src/sources/types.js';
import { readFixture, registerBytes } from '../helpers/register-fixtures.js';

const config = aggregateEventsSchema.parse({});

/** What a table asserts of an event: its kind, issuer key and the figures that matter. */
function brief(event: AggregateEvent): string {
  switch (event.kind) {
    case 'aggregate-entered':
      return `${event.kind} ${event.issuer.key} ${event.to.percent} (from ${event.thresholdPercent}%)`;
    case 'aggregate-ended':
      return `${event.kind} ${event.issuer.key} ${event.from.percent} (from ${event.thresholdPercent}%)`;
    case 'aggregate-changed':
      return `${event.kind} ${event.issuer.key} ${event.from.percent}→${event.to.percent} ${event.changePp}pp (from ${event.thresholdPercent}%)`;
    case 'aggregate-crossed':
      return `${event.kind} ${event.issuer.key} ${event.direction} ${event.level}`;
    case 'aggregate-revised':
      return `${event.kind} ${event.issuer.key} ${event.date} ${event.fromPercent}→${event.toPercent} (from ${event.thresholdPercent}%)`;
    case 'below-threshold-moved':
      return `${event.kind} ${event.issuer.key} ${event.fromPercent}→${event.toPercent} (${event.aggregatePercent} − ${event.namedPercent}, from ${event.thresholdPercent}%)`;
    default:
      return `${event.kind} ${event.issuer.key}`;
  }
}

describe('UK ANSP: two reads of the current file', () => {
  it('tells each move once, with the 0.2% threshold', () => {
    const before = readFixture('uk-ansp-current', 'uk/aggregated-current-net-short-positions.2026-07-13.csv');
    const after = readFixture('uk-ansp-current', 'uk/aggregated-current-net-short-positions.2026-09-15.csv');
    expect(diffAggregates(before, after, config).map(brief)).toEqual(
      [
        'aggregate-ended GI000A0F6407 1.79 (from 0.2%)',
        'aggregate-changed GB00B1VQ6H25 2.02→0.95 -1.07pp (from 0.2%)',
        'aggregate-crossed GB00B1VQ6H25 down 1',
        'aggregate-crossed GB00B1VQ6H25 down 2',
        'aggregate-entered GB00B5N0P849 0.44 (from 0.2%)',
        'aggregate-changed GB00BF8Q6K64 5.81→6.12 0.31pp (from 0.2%)',
      ].sort((a, b) => a.split(' ')[1]!.localeCompare(b.split(' ')[1]!)),
    );
  });

  it('tells nothing between two reads of one file', () => {
    const file = readFixture('uk-ansp-current', 'uk/aggregated-current-net-short-positions.2026-09-15.csv');
    expect(diffAggregates(file, file, config)).toEqual([]);
  });
});

describe('UK ANSP: historic file and scope list', () => {
  it('tells a past value revised between two reads, and not the row added', () => {
    const before = readFixture(
      'uk-ansp-historic',
      'uk/aggregated-historic-net-short-positions.2026-09-15.csv',
    );
    const after = readFixture(
      'uk-ansp-historic',
      'uk/aggregated-historic-net-short-positions.2026-09-16.csv',
    );
    expect(diffAggregates(before, after, config).map(brief)).toEqual([
      'aggregate-revised GB0001859296 2026-07-06 3.1→3.25 (from 0.2%)',
    ]);
  });

  it('tells nothing on a second read of a file listing one date twice (rows keyed by identity, not date)', () => {
    const fixture = registerBytes('uk/aggregated-historic-net-short-positions.2026-09-15.csv').toString(
      'utf8',
    );
    const twice = `${fixture}Vistry Group PLC,GB0001859296,3.40,06/07/2026,09/07/2026\r\n`;
    const read = () => REGISTER_READERS['uk-ansp-historic'].read(Buffer.from(twice));
    expect(read().issuers.find((i) => i.key === 'GB0001859296')?.aggregateHistory).toContainEqual({
      date: '2026-07-06',
      percent: 3.4,
      endedOn: '2026-07-09',
    });
    expect(diffAggregates(read(), read(), config)).toEqual([]);
    // A value of the repeated date revised in place is still told, once.
    const revised = REGISTER_READERS['uk-ansp-historic'].read(Buffer.from(twice.replace(',3.40,', ',3.45,')));
    expect(diffAggregates(read(), revised, config).map(brief)).toEqual([
      'aggregate-revised GB0001859296 2026-07-06 3.4→3.45 (from 0.2%)',
    ]);
  });

  it('tells shares added to and removed from the Reportable Shares List', () => {
    const before = readFixture('uk-reportable-shares', 'uk/uk-reportable-shares-list.2026-09-15.csv');
    const after = readFixture('uk-reportable-shares', 'uk/uk-reportable-shares-list.2026-09-16.csv');
    expect(diffAggregates(before, after, config).map((e) => `${brief(e)} ${e.issuer.name}`)).toEqual([
      'scope-added GB00B5N0P849 WOOD GROUP (JOHN) PLC',
      'scope-removed GI000A0F6407 888 HOLDINGS PLC',
    ]);
  });
});

// Built snapshots for the cases the fixtures do not hold.
function issuer(key: string, aggregate: [number, number] | undefined, named: number[] = []): RegisterIssuer {
  const built: RegisterIssuer = {
    key,
    isin: key,
    name: `Issuer ${key}`,
    positions: named.map((percent, i) => namedPosition(`Holder ${i}`, percent, '2026-09-01')),
  };
  if (aggregate)
    built.aggregate = { percent: aggregate[0], date: '2026-09-01', thresholdPercent: aggregate[1] };
  return built;
}
const snap = (...issuers: RegisterIssuer[]): RegisterSnapshot =>
  snapshotOf('se-fi-current', issuers, issuers.length, { aggregateThreshold: 0.1 });

const table: {
  name: string;
  before: RegisterSnapshot;
  after: RegisterSnapshot;
  events: string[];
  options?: object;
}[] = [
  {
    name: 'a rise through two levels',
    before: snap(issuer('SE1', [0.9, 0.1])),
    after: snap(issuer('SE1', [2.3, 0.1])),
    events: [
      'aggregate-changed SE1 0.9→2.3 1.4pp (from 0.1%)',
      'aggregate-crossed SE1 up 1',
      'aggregate-crossed SE1 up 2',
      // No holder named on either read: the hidden interest is the aggregate, told by its own events.
    ],
  },
  {
    name: 'a level reached exactly counts as crossed up',
    before: snap(issuer('SE1', [4.99, 0.1])),
    after: snap(issuer('SE1', [5, 0.1])),
    events: ['aggregate-changed SE1 4.99→5 0.01pp (from 0.1%)', 'aggregate-crossed SE1 up 5'],
  },
  {
    name: 'a move under minChange',
    before: snap(issuer('SE1', [1.2, 0.1])),
    after: snap(issuer('SE1', [1.25, 0.1])),
    options: { minChange: 0.1 },
    events: [],
  },
  {
    name: 'aggregates from different thresholds are never compared',
    before: snap(issuer('SE1', [1.2, 0.5])),
    after: snap(issuer('SE1', [1.9, 0.1])),
    events: ['aggregate-ended SE1 1.2 (from 0.5%)', 'aggregate-entered SE1 1.9 (from 0.1%)'],
  },
  {
    name: 'an issuer gone from the file ends its aggregate',
    before: snap(issuer('SE1', [0.3, 0.1]), issuer('SE2', [0.4, 0.1])),
    after: snap(issuer('SE2', [0.4, 0.1])),
    events: ['aggregate-ended SE1 0.3 (from 0.1%)'],
  },
  {
    name: 'hidden interest grows while the named holders stay',
    before: snap(issuer('SE1', [1.6, 0.1], [0.6, 0.5])),
    after: snap(issuer('SE1', [2.1, 0.1], [0.6, 0.5])),
    events: [
      'aggregate-changed SE1 1.6→2.1 0.5pp (from 0.1%)',
      'aggregate-crossed SE1 up 2',
      'below-threshold-moved SE1 0.5→1 (2.1 − 1.1, from 0.1%)',
    ],
  },
  {
    name: 'a holder named at 0.5 moves nothing hidden: the aggregate rose as much',
    before: snap(issuer('SE1', [1.6, 0.1], [0.6])),
    after: snap(issuer('SE1', [2.1, 0.1], [0.6, 0.5])),
    events: ['aggregate-changed SE1 1.6→2.1 0.5pp (from 0.1%)', 'aggregate-crossed SE1 up 2'],
  },
  {
    name: 'a hidden move under belowThresholdMove',
    before: snap(issuer('SE1', [1.6, 0.1], [0.6])),
    after: snap(issuer('SE1', [1.7, 0.1], [0.6])),
    events: ['aggregate-changed SE1 1.6→1.7 0.1pp (from 0.1%)'],
  },
];

describe('diffAggregates, table', () => {
  it.each(table)('$name', ({ before, after, events, options }) => {
    expect(diffAggregates(before, after, { ...config, ...options }).map(brief)).toEqual(events);
  });

  it('computes no hidden interest where the register names no holder (UK ANSP)', () => {
    const before = snapshotOf('uk-ansp-current', [issuer('GB1', [1, 0.2])], 1, { namesHolders: false });
    const after = snapshotOf('uk-ansp-current', [issuer('GB1', [2, 0.2])], 1, { namesHolders: false });
    expect(diffAggregates(before, after, config).map((e) => e.kind)).not.toContain('below-threshold-moved');
  });
});

describe('Sweden, joined files', () => {
  it('derives the hidden interest of SKF from the real files: 4.87 − (0.67 + 0.55)', () => {
    const joined = joinSwedish(
      readFixture('se-fi-current', 'shared:sweden/AktuellaPositioner.ods'),
      readFixture('se-fi-aggregate', 'shared:sweden/Blankningsregisteraggregat.ods'),
    );
    const skfAfter = joined.issuers.map((i) =>
      i.key === 'SE0000108227' && i.aggregate ? { ...i, aggregate: { ...i.aggregate, percent: 5.5 } } : i,
    );
    const events = diffAggregates(joined, { ...joined, issuers: skfAfter }, config).map(brief);
    expect(events).toEqual([
      'aggregate-changed SE0000108227 4.87→5.5 0.63pp (from 0.1%)',
      'aggregate-crossed SE0000108227 up 5',
      'below-threshold-moved SE0000108227 3.65→4.28 (5.5 − 1.22, from 0.1%)',
    ]);
  });
});

describe('Sweden, joined files across reads', () => {
  const positionsFile = (...shares: [isin: string, company: string, named: number[]][]) =>
    snapshotOf(
      'se-fi-current',
      shares.map(([isin, company, named]) => ({
        key: isin,
        isin,
        name: company,
        positions: named.map((percent, i) => namedPosition(`Fund ${i}`, percent, '2026-11-02')),
      })),
      shares.length,
    );
  const aggregateFile = (...companies: [lei: string, company: string, percent: number][]) =>
    snapshotOf(
      'se-fi-aggregate',
      companies.map(([lei, name, percent]) => ({
        key: `lei:${lei}`,
        lei,
        name,
        positions: [],
        aggregate: { percent, date: '2026-11-02', thresholdPercent: 0.1 },
      })),
      companies.length,
      { namesHolders: false, aggregateThreshold: 0.1 },
    );

  it('keeps an aggregate under its ISIN when the last named holder leaves: the holder closes, the aggregate only moves', () => {
    const first = joinSwedish(
      positionsFile(['SE1', 'Acme AB', [0.6]]),
      aggregateFile(['L1', 'Acme AB', 1.5]),
    );
    const second = joinSwedish(positionsFile(), aggregateFile(['L1', 'Acme AB', 1.2]), first);
    expect(second.issuers.map((i) => [i.key, i.lei, i.aggregate?.percent, i.positions.length])).toEqual([
      ['SE1', 'L1', 1.2, 0],
    ]);
    expect(diffAggregates(first, second, config).map(brief)).toEqual([
      'aggregate-changed SE1 1.5→1.2 -0.3pp (from 0.1%)',
      'below-threshold-moved SE1 0.9→1.2 (1.2 − 0, from 0.1%)',
    ]);
  });

  it('keeps an aggregate first seen without holders under its LEI when a holder appears, and subtracts that holder', () => {
    const first = joinSwedish(positionsFile(), aggregateFile(['L1', 'Acme AB', 1.5]));
    const second = joinSwedish(
      positionsFile(['SE1', 'Acme AB', [0.7]]),
      aggregateFile(['L1', 'Acme AB', 1.5]),
      first,
    );
    expect(second.issuers.map((i) => [i.key, i.aggregate?.percent, i.namedElsewhere])).toEqual([
      ['lei:L1', 1.5, 0.7],
      ['SE1', undefined, undefined],
    ]);
    expect(diffAggregates(first, second, config).map(brief)).toEqual([
      'below-threshold-moved lei:L1 1.5→0.8 (1.5 − 0.7, from 0.1%)',
    ]);
    expect(second.issuers[0]?.isin).toBe('SE1');
  });

  it('keeps both aggregates when a second company of the same name, of a lower LEI, joins the one that kept the share', () => {
    const first = joinSwedish(
      positionsFile(['SE1', 'Karnov AB', [0.6]]),
      aggregateFile(['L2', 'Karnov AB', 1.5]),
    );
    const second = joinSwedish(
      positionsFile(['SE1', 'Karnov AB', [0.6]]),
      aggregateFile(['L1', 'Karnov AB', 0.8], ['L2', 'Karnov AB', 1.5]),
      first,
    );
    expect(second.issuers.map((i) => [i.key, i.lei, i.aggregate?.percent])).toEqual([
      ['lei:L1', 'L1', 0.8],
      ['SE1', 'L2', 1.5],
    ]);
    expect(diffAggregates(first, second, config).map(brief)).toEqual([
      'aggregate-entered lei:L1 0.8 (from 0.1%)',
    ]);
  });

  it("never subtracts another company's named positions: two companies of one name, one share", () => {
    const joined = joinSwedish(
      positionsFile(['SE1', 'Karnov AB', [0.6]]),
      aggregateFile(['L1', 'Karnov AB', 1.5], ['L2', 'Karnov AB', 0.8]),
    );
    expect(joined.issuers.map((i) => [i.key, i.aggregate?.percent, i.namedElsewhere, i.isin])).toEqual([
      ['lei:L2', 0.8, undefined, undefined],
      ['SE1', 1.5, undefined, 'SE1'],
    ]);
    const moved = joinSwedish(
      positionsFile(['SE1', 'Karnov AB', [0.9]]),
      aggregateFile(['L1', 'Karnov AB', 1.5], ['L2', 'Karnov AB', 0.8]),
      joined,
    );
    // The holder of SE1 moved: the share's own aggregate tells it, the other Karnov AB's does not.
    expect(diffAggregates(joined, moved, config).map(brief)).toEqual([
      'below-threshold-moved SE1 0.9→0.6 (1.5 − 0.9, from 0.1%)',
    ]);
  });

  it('gives a company of two shares one aggregate, less the named positions of both', () => {
    const joined = joinSwedish(
      positionsFile(['SE2', 'Ericsson', [0.5]], ['SE1', 'Ericsson', [0.6, 0.7]]),
      aggregateFile(['L1', 'Ericsson', 3]),
    );
    expect(joined.issuers.map((i) => [i.key, i.aggregate?.percent, i.namedElsewhere])).toEqual([
      ['SE1', 3, 0.5],
      ['SE2', undefined, undefined],
    ]);
    const raised = joinSwedish(
      positionsFile(['SE2', 'Ericsson', [0.9]], ['SE1', 'Ericsson', [0.6, 0.7]]),
      aggregateFile(['L1', 'Ericsson', 3]),
      joined,
    );
    const events = diffAggregates(joined, raised, config);
    expect(events.map(brief)).toEqual(['below-threshold-moved SE1 1.2→0.8 (3 − 2.2, from 0.1%)']);
    // A desk watching the B share alone follows the company's one aggregate too.
    expect(events.map((event) => isWatched(['SE2'], event.issuer))).toEqual([true]);
    expect(events.map((event) => isWatched(['SE3'], event.issuer))).toEqual([false]);
  });
});
