import { describe, expect, it } from 'vitest';
import { type EventFilter, matches } from '../../src/console/pages/events.js';
import { makeEvent } from '../routing/events.js';

const none: EventFilter = { issuer: '', holder: '', kind: '', channel: '', source: '' };
const logged = { event: makeEvent({ holder: 'D. E. Shaw & Co., L.P.' }), routes: [] };

describe('the events page holder filter: the entity key, as the record search and `route` match', () => {
  it.each([
    { holder: 'shaw', shown: true },
    { holder: 'D.E. SHAW & CO LP', shown: true },
    { holder: 'deshawcolp', shown: true },
    { holder: 'bradshaw', shown: false },
    { holder: 'citadel', shown: false },
  ])('holder "$holder" → shown: $shown', ({ holder, shown }) => {
    expect(matches(logged, { ...none, holder })).toBe(shown);
  });
});

describe('the events page source filter: the upstream API, or one register', () => {
  const events = [makeEvent(), makeEvent({ source: 'afm' })];
  it.each([
    { source: '', shown: [true, true] },
    { source: 'API', shown: [true, false] },
    { source: 'afm', shown: [false, true] },
    { source: 'fi', shown: [false, false] },
  ])('source "$source" → shown: $shown', ({ source, shown }) => {
    expect(events.map((event) => matches({ event, routes: [] }, { ...none, source }))).toEqual(shown);
  });
});
