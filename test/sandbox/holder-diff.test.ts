import { describe, expect, it } from 'vitest';
import { diffActive, holderKeyOf } from '../../src/sandbox/index.js';

const row = (position_holder: string, value: number, date = '2026-01-05') => ({
  date,
  value,
  position_holder,
});

describe('sandbox holder key', () => {
  it.each([
    ['D. E. Shaw & Co., L.P.', 'deshawcolp'],
    ['D.E. SHAW & CO LP', 'deshawcolp'],
    ['Ｍａｎ Group plc', 'mangroupplc'],
    ['Øresund Macro Partners ApS', 'øresundmacropartnersaps'],
    ['Two Sigma Investments, LP', 'twosigmainvestmentslp'],
  ])('keys %s as %s', (name, key) => {
    expect(holderKeyOf(name)).toBe(key);
  });
});

describe('sandbox diff oracle', () => {
  it.each([
    ['a new holder is opened', [], [row('A LLP', 0.6)], [['opened', null, 0.6]]],
    ['a gone holder is closed', [row('A LLP', 0.6)], [], [['closed', 0.6, null]]],
    ['a higher value is increased', [row('A LLP', 0.6)], [row('A LLP', 0.7)], [['increased', 0.6, 0.7]]],
    [
      'a sub-threshold row is decreased',
      [row('A LLP', 0.6)],
      [row('A LLP', 0.42)],
      [['decreased', 0.6, 0.42]],
    ],
    ['a new date with the same value is nothing', [row('A LLP', 0.6)], [row('A LLP', 0.6, '2026-01-06')], []],
    ['float noise within 4 decimals is nothing', [row('A LLP', 0.8)], [row('A LLP', 0.7999999999999999)], []],
    [
      'a change in the 4th decimal counts',
      [row('A LLP', 0.8)],
      [row('A LLP', 0.8001)],
      [['increased', 0.8, 0.8001]],
    ],
    [
      'a new spelling is the same holder',
      [row('D. E. Shaw & Co., L.P.', 1)],
      [row('D.E. SHAW & CO LP', 1.1)],
      [['increased', 1, 1.1]],
    ],
    [
      'the later of two rows of one key wins',
      [row('A LLP', 0.9)],
      [row('A, LLP', 0.7, '2026-01-04'), row('A LLP', 0.9, '2026-01-06')],
      [],
    ],
  ] as const)('%s', (_name, before, after, expected) => {
    const changes = diffActive('X', before, after).map((c) => [c.kind, c.from, c.to]);
    expect(changes).toEqual(expected);
  });

  it('names the holder by its latest spelling, and the old one when closed', () => {
    const [changed] = diffActive('X', [row('D. E. Shaw & Co., L.P.', 1)], [row('D.E. SHAW & CO LP', 2)]);
    expect(changed).toMatchObject({ issuerId: 'X', holder: 'D.E. SHAW & CO LP', holderKey: 'deshawcolp' });
    const [closed] = diffActive('X', [row('D. E. Shaw & Co., L.P.', 1)], []);
    expect(closed?.holder).toBe('D. E. Shaw & Co., L.P.');
  });
});
