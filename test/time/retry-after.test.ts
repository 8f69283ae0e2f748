import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/time/retry-after.js';

// Wed, 15 Jan 2025 12:00:00 GMT
const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);

describe('parseRetryAfter', () => {
  it.each<[string, string | string[] | undefined, number | undefined]>([
    ['absent', undefined, undefined],
    ['empty', '', undefined],
    ['blank', '   ', undefined],
    ['zero seconds', '0', 0],
    ['delta-seconds', '120', 120_000],
    ['delta-seconds with spaces', ' 7 ', 7_000],
    ['one-element array', ['30'], 30_000],
    ['repeated identical values', ['30', '30'], 30_000],
    ['conflicting values', ['30', '60'], undefined],
    ['empty array', [], undefined],
    ['negative seconds', '-5', undefined],
    ['fractional seconds', '1.5', undefined],
    ['seconds with unit', '10s', undefined],
    ['hex', '0x10', undefined],
    ['exponent', '1e3', undefined],
    ['too large to be safe', '99999999999999999999', undefined],
    ['IMF-fixdate in 90 s', 'Wed, 15 Jan 2025 12:01:30 GMT', 90_000],
    ['IMF-fixdate now', 'Wed, 15 Jan 2025 12:00:00 GMT', 0],
    ['IMF-fixdate with a wrong weekday still dates', 'Fri, 15 Jan 2025 12:00:10 GMT', 10_000],
    ['IMF-fixdate in the past', 'Wed, 15 Jan 2025 11:59:59 GMT', undefined],
    ['IMF-fixdate tomorrow', 'Thu, 16 Jan 2025 12:00:00 GMT', 86_400_000],
    ['RFC 850 date', 'Wednesday, 15-Jan-25 12:00:05 GMT', 5_000],
    ['asctime date', 'Wed Jan 15 12:00:20 2025', 20_000],
    ['asctime date, one-digit day', 'Sat Feb  1 00:00:00 2025', Date.UTC(2025, 1, 1) - NOW],
    ['date that does not exist', 'Mon, 31 Feb 2025 12:00:00 GMT', undefined],
    ['hour out of range', 'Wed, 15 Jan 2025 25:00:00 GMT', undefined],
    ['not GMT', 'Wed, 15 Jan 2025 12:01:00 +0100', undefined],
    ['ISO 8601 is not an HTTP-date', '2025-01-15T12:01:00Z', undefined],
    ['lower-case month', 'Wed, 15 jan 2025 12:01:00 GMT', undefined],
    ['garbage', 'soon', undefined],
    ['a bare number Date.parse would take', 'Wed 2', undefined],
  ])('%s', (_name, header, expected) => {
    expect(parseRetryAfter(header, NOW)).toBe(expected);
  });

  it('resolves a two-digit RFC 850 year more than 50 years ahead into the past century', () => {
    expect(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT', NOW)).toBeUndefined();
    const inTheNineties = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT', inTheNineties - 1_000)).toBe(1_000);
  });
});
