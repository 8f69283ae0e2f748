import { describe, expect, it } from 'vitest';
import { suspectShrink } from '../../src/jobs/directory-shrink.js';

describe('suspectShrink: an issuer list far shorter than the last is a partial answer', () => {
  it.each([
    ['one of four leaving (an ordinary delisting)', 4, 3, false],
    ['twelve of fifteen at once', 15, 3, true],
    ['a fifth of 5,000 at once', 5_000, 4_000, true],
    ['a few of 5,000', 5_000, 4_990, false],
    ['nine of forty: under ten', 40, 31, false],
    ['a list that grew', 100, 140, false],
  ])('%s', (_name, previous, fresh, suspect) => {
    expect(suspectShrink(previous, fresh)).toBe(suspect);
  });
});
