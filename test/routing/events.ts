import { holderKey } from '../../src/positions/holder-key.js';
import type { PositionEvent } from '../../src/positions/types.js';

/** A test event: an `increased` from 0.6 to 0.8 by Marshall Wace LLP in Acme Plc, overridable. */
export function makeEvent(overrides: Partial<PositionEvent> = {}): PositionEvent {
  const holder = overrides.holder ?? 'MARSHALL WACE LLP';
  return {
    id: 'ev-1',
    kind: 'increased',
    issuer: { id: 'ISS-ACME', name: 'Acme  Plc' },
    holderKey: holderKey(holder),
    holder,
    previous: { value: 0.6, date: '2026-03-02' },
    current: { value: 0.8, date: '2026-03-03' },
    delta: 0.2,
    thresholdsCrossed: [],
    issuerTotal: { before: 1.8, after: 2.0 },
    detectedAt: '2026-03-03T10:00:00.000Z',
    ...overrides,
  };
}
