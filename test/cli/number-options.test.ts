import { describe, expect, it } from 'vitest';
import { isCliError } from '../../src/cli/exit.js';
import { parseCount, parsePercent } from '../../src/cli/number-options.js';

/** The exit code and message a parser's refusal gives, or the value it accepted. */
function outcome(parse: () => number): number | { exitCode: number; message: string } {
  try {
    return parse();
  } catch (error) {
    if (!isCliError(error)) throw error;
    return { exitCode: error.exitCode, message: error.message };
  }
}

describe('parseCount (--limit)', () => {
  it.each([
    ['20', 20],
    ['1', 1],
    [' 7 ', 7],
  ])('accepts %j as %d', (text, expected) => {
    expect(parseCount(text, '--limit')).toBe(expected);
  });

  // Number() gave 20 rows for "abc" (NaN || 20) and none for "-1" before these were refused.
  it.each(['abc', '0', '-1', '', '1.5', '1e3', '0x10', 'Infinity', '99999999999999999999'])(
    'refuses %j with exit 2 naming the flag',
    (text) => {
      expect(outcome(() => parseCount(text, '--limit'))).toEqual({
        exitCode: 2,
        message: `--limit must be a whole number of at least 1 (got "${text}")`,
      });
    },
  );
});

describe('parsePercent (--value, --previous)', () => {
  it.each([
    ['0.7', 0.7],
    ['0', 0],
    ['100', 100],
    ['12.3456', 12.3456],
  ])('accepts %j as %d', (text, expected) => {
    expect(parsePercent(text, '--value')).toBe(expected);
  });

  // "-5" was shown as 0% and "150" passed before.
  it.each(['-5', '150', '100.01', 'abc', '', '0.7%', '1e1', '.5', 'NaN'])(
    'refuses %j with exit 2 naming the flag',
    (text) => {
      expect(outcome(() => parsePercent(text, '--value'))).toEqual({
        exitCode: 2,
        message: `--value must be a percentage of issued capital from 0 to 100, e.g. 0.75 (got "${text}")`,
      });
    },
  );
});
