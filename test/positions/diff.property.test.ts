import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collapseRows, type DiffInput, diffPositions } from '../../src/positions/diff.js';
import { holderKey } from '../../src/positions/holder-key.js';
import type { PositionEvent, Snapshot } from '../../src/positions/types.js';
import type { IssuerPosition } from '../../src/upstream/schemas.js';
import { applyEvents } from '../helpers/apply-events.js';
import { input } from './fixtures.js';

const RUNS = { numRuns: 200 };

/** Holder keys, few enough that previous and current lists overlap; some shadow Object.prototype names. */
const BASES = [
  'alpha',
  'betacapital',
  'deshawcolp',
  'citadel',
  'constructor',
  'tostring',
  'ärztefonds',
  'fund7',
];

/** One character's spelling: its case and what follows it. Never changes the holder key. */
interface Step {
  upper: boolean;
  sep: string;
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  upper: fc.boolean(),
  sep: fc.constantFrom('', '', '', ' ', '. ', '.', ', ', ' & ', '-', '\u00a0'),
});
const spellingArb = fc.array(stepArb, { maxLength: 12 });

function spell(base: string, steps: readonly Step[]): string {
  return [...base].map((ch, i) => (steps[i]?.upper ? ch.toUpperCase() : ch) + (steps[i]?.sep ?? '')).join('');
}

/** Values on the 4-decimal grid, plus raw doubles whose rounding must not matter. */
const valueArb = fc.oneof(
  fc.integer({ min: 0, max: 120_000 }).map((n) => n / 10_000),
  fc.double({ min: 0, max: 12, noNaN: true, noDefaultInfinity: true }),
);

interface RowSpec {
  base: string;
  value: number;
  day: number;
  spelling: Step[];
}

const rowSpecArb: fc.Arbitrary<RowSpec> = fc.record({
  base: fc.constantFrom(...BASES),
  value: valueArb,
  // Few dates, so same-date ties between rows of one holder are common.
  day: fc.integer({ min: 1, max: 4 }),
  spelling: spellingArb,
});
const rowsArb = fc.array(rowSpecArb, { maxLength: 12 });

function toRow(spec: RowSpec): IssuerPosition {
  return {
    position_holder: spell(spec.base, spec.spelling),
    value: spec.value,
    date: `2024-05-0${spec.day}`,
  };
}

/** The previous snapshot as a real earlier poll would have left it, or null for a first observation. */
function previousOf(rows: RowSpec[] | null): Snapshot | null {
  if (rows === null) return null;
  return diffPositions(
    input({ previous: null, rows: rows.map(toRow), now: new Date('2024-06-01T00:00:00Z') }),
  ).next;
}

const previousArb = fc.option(rowsArb, { nil: null });

function diffOf(
  previous: Snapshot | null,
  rows: IssuerPosition[],
  onFirstSeen: DiffInput['onFirstSeen'] = 'alert',
) {
  return diffPositions(input({ previous, rows, onFirstSeen }));
}

function withoutHolder(events: PositionEvent[]): Omit<PositionEvent, 'holder'>[] {
  return events.map(({ holder: _holder, ...rest }) => rest);
}

describe('diffPositions properties', () => {
  it('applying the events to the previous state yields the current one', () => {
    fc.assert(
      fc.property(previousArb, rowsArb, (previousRows, currentRows) => {
        const previous = previousOf(previousRows);
        const rows = currentRows.map(toRow);
        const { events, next } = diffOf(previous, rows);
        const expected = Object.fromEntries(
          Object.entries(collapseRows(rows)).map(([key, position]) => [key, { value: position.value }]),
        );
        expect(applyEvents(previous?.positions ?? {}, events)).toEqual(expected);
        expect(next.positions).toEqual(collapseRows(rows));
        for (const event of events) {
          const had = previous !== null && Object.hasOwn(previous.positions, event.holderKey);
          expect(had).toBe(event.kind !== 'opened');
        }
      }),
      RUNS,
    );
  });

  it('identical input, in any row order, yields no events', () => {
    fc.assert(
      fc.property(
        rowsArb.chain((rows) =>
          fc.tuple(
            fc.constant(rows),
            fc.shuffledSubarray(rows, { minLength: rows.length, maxLength: rows.length }),
          ),
        ),
        ([rows, shuffled]) => {
          const previous = previousOf(rows);
          expect(diffOf(previous, shuffled.map(toRow)).events).toEqual([]);
        },
      ),
      RUNS,
    );
  });

  it('shuffling rows changes nothing at all', () => {
    fc.assert(
      fc.property(
        previousArb,
        rowsArb.chain((rows) =>
          fc.tuple(
            fc.constant(rows),
            fc.shuffledSubarray(rows, { minLength: rows.length, maxLength: rows.length }),
          ),
        ),
        (previousRows, [rows, shuffled]) => {
          const previous = previousOf(previousRows);
          expect(diffOf(previous, shuffled.map(toRow))).toEqual(diffOf(previous, rows.map(toRow)));
        },
      ),
      RUNS,
    );
  });

  it('respelling holder names changes no event and no id, only display names', () => {
    fc.assert(
      fc.property(
        previousArb,
        rowsArb.chain((rows) =>
          fc.tuple(
            fc.constant(rows),
            fc.array(spellingArb, { minLength: rows.length, maxLength: rows.length }),
          ),
        ),
        (previousRows, [rows, spellings]) => {
          const previous = previousOf(previousRows);
          const respelled = rows.map((spec, i) => ({ ...spec, spelling: spellings[i] ?? [] }));
          for (const [a, b] of rows.map((spec, i) => [toRow(spec), toRow(respelled[i] ?? spec)] as const)) {
            expect(holderKey(b.position_holder)).toBe(holderKey(a.position_holder));
          }
          const original = diffOf(previous, rows.map(toRow)).events;
          const variant = diffOf(previous, respelled.map(toRow)).events;
          expect(withoutHolder(variant)).toEqual(withoutHolder(original));
        },
      ),
      RUNS,
    );
  });

  it('event ids are unique within one diff, well-formed and stable across runs', () => {
    fc.assert(
      fc.property(previousArb, rowsArb, (previousRows, currentRows) => {
        const rows = currentRows.map(toRow);
        const first = diffOf(previousOf(previousRows), rows).events.map((e) => e.id);
        const again = diffOf(previousOf(previousRows), structuredClone(rows)).events.map((e) => e.id);
        expect(new Set(first).size).toBe(first.length);
        expect(again).toEqual(first);
        for (const id of first) expect(id).toMatch(/^e[0-9a-f]{32}$/);
      }),
      RUNS,
    );
  });
});
