import type { PositionEvent } from '../../../src/positions/types.js';

/** The issuer most cases use. */
export const ACME = { id: 'ISS-1', name: 'Acme plc' };

/** A `raised` event of Marshall Wace in Acme plc; override what a case needs. */
export function makeEvent(overrides: Partial<PositionEvent> = {}): PositionEvent {
  return {
    id: 'evt-1',
    kind: 'increased',
    issuer: ACME,
    holderKey: 'marshallwace',
    holder: 'Marshall Wace',
    previous: { value: 1.11, date: '2024-11-19' },
    current: { value: 1.23, date: '2024-11-20' },
    delta: 0.12,
    thresholdsCrossed: [],
    issuerTotal: { before: 3.4, after: 3.52 },
    detectedAt: '2024-11-20T07:31:00.000Z',
    ...overrides,
  };
}
