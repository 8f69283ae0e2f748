import { describe, expect, it } from 'vitest';
import {
  answerNeedsConfirmation,
  countsRefreshCloses,
  disappearance,
  needsConfirmation,
} from '../../src/jobs/observe/disappearance.js';

describe('the mass-disappearance guard (observe/disappearance.ts)', () => {
  const listing = (entries: Record<string, string[]>) => new Map(Object.entries(entries));

  const reads: { name: string; after: Record<string, string[]>; share: number; held: boolean }[] = [
    { name: 'one issuer of three gone', after: { a: ['x'], b: ['y'] }, share: 0.5, held: false },
    { name: 'most issuers gone', after: { a: ['x'] }, share: 0.3, held: true },
    { name: 'nothing gone', after: { a: ['x'], b: ['y'], c: ['z'] }, share: 0, held: false },
  ];

  it.each(reads)('a register read: $name', ({ after, share, held }) => {
    const before = listing({ a: ['x'], b: ['y'], c: ['z'] });
    expect(needsConfirmation(disappearance(before, listing(after)), share)).toBe(held);
  });

  it.each([
    { name: 'no close', a: { closed: 0, left: 0 }, confirm: false, counted: false },
    { name: 'the whole list emptied', a: { closed: 3, left: 0 }, confirm: true, counted: false },
    {
      name: 'some closes, the refresh under the share',
      a: { closed: 1, left: 2, refreshClosed: 2, positions: 10 },
      confirm: false,
      counted: true,
    },
    {
      name: 'some closes, the refresh past the share',
      a: { closed: 1, left: 2, refreshClosed: 3, positions: 10 },
      confirm: true,
      counted: true,
    },
    {
      name: 'some closes, no sweep count yet',
      a: { closed: 1, left: 2, refreshClosed: 1, positions: 0 },
      confirm: false,
      counted: true,
    },
  ])('an API answer: $name', ({ a, confirm, counted }) => {
    expect(answerNeedsConfirmation(a, 0.2)).toBe(confirm);
    expect(countsRefreshCloses(a)).toBe(counted);
  });
});
