import { describe, expect, it } from 'vitest';
import { digestIssuers } from '../../src/channels/digest-facts.js';
import { makeEvent } from '../routing/events.js';

describe('digestIssuers', () => {
  it('gives one issuer listed by two registers a section per register, newest news first', () => {
    const issuer = { id: 'SE0000106270', name: 'H & M' };
    const events = [
      makeEvent({ id: 'a', issuer, source: 'fi', detectedAt: '2026-11-26T08:00:00.000Z' }),
      makeEvent({ id: 'b', issuer, source: 'fise', detectedAt: '2026-11-26T09:00:00.000Z' }),
      makeEvent({ id: 'c', issuer, source: 'fi', detectedAt: '2026-11-26T10:00:00.000Z' }),
      makeEvent({ id: 'd', issuer, detectedAt: '2026-11-26T07:00:00.000Z' }),
    ];
    expect(digestIssuers(events).map((g) => g.events.map((e) => e.id))).toEqual([['a', 'c'], ['b'], ['d']]);
  });
});
