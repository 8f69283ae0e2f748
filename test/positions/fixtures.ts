import type { DiffInput } from '../../src/positions/diff.js';
import { holderKey } from '../../src/positions/holder-key.js';
import type { HeldPosition, Snapshot } from '../../src/positions/types.js';
import type { IssuerPosition } from '../../src/upstream/schemas.js';

/** The issuer every diff test uses. */
export const ISSUER = { id: 'ISS-1', name: 'Acme Corp' };

/** The poll instant every diff test uses. */
export const NOW = new Date('2024-06-03T10:00:00.000Z');

/** One upstream row. */
export function row(holder: string, value: number, date = '2024-06-01'): IssuerPosition {
  return { position_holder: holder, value, date };
}

/** A previous snapshot holding the given positions, keyed by holder key. */
export function snapshotOf(positions: HeldPosition[], polledAt = '2024-06-02T10:00:00.000Z'): Snapshot {
  return {
    issuerId: ISSUER.id,
    issuerName: ISSUER.name,
    positions: Object.fromEntries(positions.map((p) => [holderKey(p.holder), p])),
    lastUpdated: '2024-06-02T09:00:00Z',
    polledAt,
  };
}

/** A snapshot position. */
export function held(holder: string, value: number, date = '2024-05-01'): HeldPosition {
  return { holder, value, date };
}

/** A diff input with the defaults of the config schema. */
export function input(overrides: Partial<DiffInput>): DiffInput {
  return {
    previous: snapshotOf([]),
    issuer: ISSUER,
    rows: [],
    lastUpdated: '2024-06-03T09:00:00Z',
    now: NOW,
    thresholds: [0.5, 1, 2, 5],
    onFirstSeen: 'baseline',
    ...overrides,
  };
}
