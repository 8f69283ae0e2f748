import { describe, expect, it } from 'vitest';
import { syntheticEvent } from '../../src/routing/synthetic-event.js';

const now = new Date('2026-03-03T10:00:00Z');

describe('syntheticEvent', () => {
  it.each([
    {
      name: 'opened',
      input: { kind: 'opened' as const, value: 0.7 },
      expected: {
        previous: null,
        current: { value: 0.7, date: '2026-03-03' },
        delta: 0.7,
        thresholdsCrossed: [0.5],
      },
    },
    {
      name: 'increased with a default previous',
      input: { kind: 'increased' as const, value: 1.05 },
      expected: {
        previous: { value: 0.95, date: '2026-03-03' },
        current: { value: 1.05, date: '2026-03-03' },
        delta: 0.1,
        thresholdsCrossed: [1],
      },
    },
    {
      name: 'decreased with a given previous',
      input: { kind: 'decreased' as const, value: 0.4, previous: 2.2 },
      expected: {
        previous: { value: 2.2, date: '2026-03-03' },
        current: { value: 0.4, date: '2026-03-03' },
        delta: -1.8,
        thresholdsCrossed: [0.5, 1, 2],
      },
    },
    {
      name: 'closed from a value',
      input: { kind: 'closed' as const, value: 0.6 },
      expected: {
        previous: { value: 0.6, date: '2026-03-03' },
        current: null,
        delta: -0.6,
        thresholdsCrossed: [0.5],
      },
    },
    {
      name: 'closed with a final value',
      input: { kind: 'closed' as const, value: 0.3, previous: 0.55 },
      expected: {
        previous: { value: 0.55, date: '2026-03-03' },
        current: null,
        final: { value: 0.3, date: '2026-03-03' },
        delta: -0.55,
      },
    },
  ])('$name', ({ input, expected }) => {
    const event = syntheticEvent({
      issuer: 'ACME',
      holder: 'D. E. Shaw & Co., L.P.',
      thresholds: [2, 0.5, 1],
      now,
      ...input,
    });
    expect(event).toMatchObject({
      ...expected,
      kind: input.kind,
      issuer: { id: 'ACME', name: 'ACME' },
      holderKey: 'deshawcolp',
      id: `synthetic-${input.kind}-deshawcolp`,
      detectedAt: '2026-03-03T10:00:00.000Z',
    });
    expect(event.issuerTotal).toEqual({
      before: event.previous?.value ?? 0,
      after: event.current?.value ?? 0,
    });
  });

  it('keeps an issuer given as id and name', () => {
    const event = syntheticEvent({
      issuer: { id: 'X1', name: 'Acme' },
      holder: 'H',
      kind: 'opened',
      value: 1,
      now,
    });
    expect(event.issuer).toEqual({ id: 'X1', name: 'Acme' });
  });
});
