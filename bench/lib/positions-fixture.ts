import { HOLDER_NAMES } from '../../src/sandbox/names.js';
import { Random } from '../../src/sandbox/prng.js';
import type { IssuerPosition } from '../../src/upstream/schemas.js';

/** One issuer's active rows before and after a refresh. */
export interface IssuerFixture {
  issuer: { id: string; name: string };
  before: IssuerPosition[];
  after: IssuerPosition[];
}

const round2 = (value: number): number => Math.round(value * 100) / 100;

/**
 * `issuers` x `holders` active positions, and the same with `rate` of them changed: a fifth opened (a
 * holder new to the issuer), a fifth closed, the rest moved by up to ±0.5 points with a new date.
 */
export function positionsFixture(options: {
  issuers: number;
  holders: number;
  rate: number;
  seed: number;
}): IssuerFixture[] {
  const rng = new Random(options.seed);
  if (options.holders > HOLDER_NAMES.length - 4) throw new Error('not enough holder names');
  const fixtures: IssuerFixture[] = [];
  for (let i = 0; i < options.issuers; i++) {
    const names = rng.sample(HOLDER_NAMES, options.holders);
    const before = names.map((name) => ({
      date: '2026-01-05',
      value: round2(0.5 + rng.next() * 3),
      position_holder: name,
    }));
    fixtures.push({
      issuer: { id: `ISS-${String(i + 1).padStart(4, '0')}`, name: `Issuer ${i + 1} plc` },
      before,
      after: before.map((row) => ({ ...row })),
    });
  }
  const slots = fixtures.flatMap((f, issuer) => f.before.map((_, row) => ({ issuer, row })));
  const count = Math.round(options.rate * slots.length);
  const closed = new Set<string>();
  for (const { issuer, row } of rng.sample(slots, count)) {
    const fixture = fixtures[issuer];
    const current = fixture?.after[row];
    if (!fixture || !current) continue;
    const roll = rng.next();
    if (roll < 0.2) {
      const listed = new Set(fixture.after.map((r) => r.position_holder));
      const name = rng.pick(HOLDER_NAMES.filter((n) => !listed.has(n)));
      if (name)
        fixture.after.push({ date: '2026-01-06', value: round2(0.5 + rng.next()), position_holder: name });
    } else if (roll < 0.4) {
      closed.add(`${issuer}|${current.position_holder}`);
    } else {
      current.value = Math.max(0.5, round2(current.value + (rng.next() - 0.5)));
      current.date = '2026-01-06';
    }
  }
  for (const [index, fixture] of fixtures.entries()) {
    fixture.after = fixture.after.filter((r) => !closed.has(`${index}|${r.position_holder}`));
  }
  return fixtures;
}
