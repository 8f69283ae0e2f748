import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { HolderIdentities } from '../../src/positions/holder-identity.js';
import { holderKey } from '../../src/positions/index.js';
import type { PositionEvent } from '../../src/positions/types.js';
import { matchFilter } from '../../src/routing/filter.js';

const LEI = '213800ZZZMWACE00LP01';
// The French register gives Marshall Wace's LEI; the Dutch one its name, aliased to that LEI.
const identities = new HolderIdentities([
  { alias: 'Marshall Wace LLP', holder: LEI },
  { alias: 'MW Europe Ltd', holder: 'Marshall Wace LLP' },
]);

const france = { holderKey: holderKey('Marshall Wace LLP'), holder: 'Marshall Wace LLP', holderLei: LEI };
const netherlands = { holderKey: holderKey('Marshall Wace LLP'), holder: 'Marshall Wace LLP' };
const otherSpelling = { holderKey: holderKey('MW Europe Ltd.'), holder: 'MW Europe Ltd.' };
const citadel = { holderKey: holderKey('Citadel Advisors LLC'), holder: 'Citadel Advisors LLC' };
const citadelFr = { ...citadel, holderLei: '549300ZZZCITADEL0A02' };

describe('one holder across registers', () => {
  it.each([
    ['France by its LEI', france, `lei:${LEI}`],
    ['the Netherlands by name, aliased to the LEI', netherlands, `lei:${LEI}`],
    ['a spelling aliased to the name, followed to the LEI', otherSpelling, `lei:${LEI}`],
    ['an unaliased name: its holder key', citadel, 'citadeladvisorsllc'],
    ['an unaliased LEI: the LEI', citadelFr, 'lei:549300ZZZCITADEL0A02'],
  ])('%s', (_, holder, key) => {
    expect(identities.keyOf(holder)).toBe(key);
  });

  it('without aliases a register LEI and a name are two holders', () => {
    expect(HolderIdentities.none.keyOf(france)).not.toBe(HolderIdentities.none.keyOf(netherlands));
  });

  it('a name aliased to a group takes the LEI holder of that name along', () => {
    const group = new HolderIdentities([{ alias: 'Marshall Wace LLP', holder: 'Marshall Wace group' }]);
    expect(group.keyOf(france)).toBe('marshallwacegroup');
    expect(group.keyOf(netherlands)).toBe('marshallwacegroup');
    expect(group.nameOf('marshallwacegroup')).toBe('Marshall Wace group');
  });

  it.each([
    ['the LEI', LEI, otherSpelling, true],
    ['lei:<LEI>', `lei:${LEI.toLowerCase()}`, netherlands, true],
    ['a prefix of an aliased name', 'Marshall Wace', otherSpelling, true],
    ['a prefix of the holder name', 'Citadel', citadel, true],
    ['another holder', 'Citadel', france, false],
    ['a word inside no name', 'Wace', citadel, false],
  ])('an entry naming %s', (_, entry, holder, expected) => {
    expect(identities.matches(entry, holder)).toBe(expected);
  });

  it.each([
    [LEI, true],
    ['Marshall Wace LLP', true],
    ['MW Europe Ltd.', true],
    ['Citadel', false],
  ])('declares %s: %s', (entry, expected) => {
    expect(identities.declares(entry)).toBe(expected);
  });

  it("a holder watchlist (a channel filter's holders) passes the fund in every register", () => {
    const event = (holder: typeof france | typeof otherSpelling): PositionEvent => ({
      id: 'e',
      kind: 'opened',
      issuer: { id: 'X', name: 'X' },
      ...holder,
      previous: null,
      current: { value: 0.6, date: '2026-10-01' },
      delta: 0.6,
      thresholdsCrossed: [],
      issuerTotal: { before: 0, after: 0.6 },
      detectedAt: '2026-10-01T10:00:00.000Z',
    });
    const filter = { holders: [LEI] };
    expect(matchFilter(event(france), filter, identities)).toEqual({ pass: true });
    expect(matchFilter(event(otherSpelling), filter, identities)).toEqual({ pass: true });
    expect(matchFilter(event(otherSpelling), filter).pass).toBe(false);
  });
});

describe('holders.aliases in the config', () => {
  const base = {
    redis: { url: 'redis://127.0.0.1:6379' },
    sources: [{ name: 'afm', kind: 'afm-current', url: 'https://www.afm.nl/export.csv' }],
    channels: [],
  };
  it('is refused with a cycle, naming the key', () => {
    const parsed = configSchema.safeParse({
      ...base,
      holders: {
        aliases: [
          { alias: 'A Fund', holder: 'B Fund' },
          { alias: 'b fund', holder: 'A FUND' },
        ],
      },
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['holders', 'aliases', 0, 'alias']);
    expect(parsed.error?.issues[0]?.message).toMatch(/cycle/);
  });
  it('takes two spellings of one key as no alias, and defaults to none', () => {
    expect(
      configSchema.safeParse({ ...base, holders: { aliases: [{ alias: 'A Fund', holder: 'A FUND' }] } })
        .success,
    ).toBe(true);
    const parsed = configSchema.safeParse(base);
    expect(parsed.success && parsed.data.holders.aliases).toEqual([]);
  });
});
