import { describe, expect, it } from 'vitest';
import { type EventFilter, matches } from '../../src/console/pages/events.js';
import { makeEvent } from '../routing/events.js';

const none: EventFilter = { issuer: '', holder: '', kind: '', channel: '' };
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
