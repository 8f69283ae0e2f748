import { describe, expect, it } from 'vitest';
import { type EventFilter, filterOf, matches } from '../../src/console/pages/events.js';
import { HolderIdentities } from '../../src/positions/holder-identity.js';
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

describe('the events page holder filter across registers, and as of a time (issue 34)', () => {
  const LEI = '213800ZZZMWACE00LP01';
  const identities = new HolderIdentities([{ alias: 'Marshall Wace LLP', holder: LEI }]);
  const french = makeEvent({ holder: 'Marshall Wace LLP', source: 'amf', holderLei: LEI });
  const dutch = makeEvent({ holder: 'Marshall Wace LLP', source: 'afm' });
  it('takes the holder identity a holder page links: both registers, aliased', () => {
    const shown = (holders: HolderIdentities) =>
      [french, dutch].map((event) =>
        matches({ event, routes: [] }, { ...none, holder: `lei:${LEI}` }, holders),
      );
    expect(shown(identities)).toEqual([true, true]);
    expect(shown(HolderIdentities.none)).toEqual([true, false]);
  });
  it('keeps only what had been seen by asOf', () => {
    const event = makeEvent({ detectedAt: '2026-11-05T09:00:00.000Z' });
    const at = (asOf: string) => matches({ event, routes: [] }, filterOf(new URLSearchParams({ asOf }), 0));
    expect(at('2026-11-05T08:59:59Z')).toBe(false);
    expect(at('2026-11-05T09:00:00Z')).toBe(true);
    expect(at('2026-11-04')).toBe(false);
    expect(at('2026-11-05')).toBe(true);
  });
});
