import { describe, expect, it } from 'vitest';
import { cronPatternProblem } from '../../src/preflight/cron-pattern.js';

describe('cronPatternProblem', () => {
  it.each<[string, string, string]>([
    ['words', 'every weekday at 7:30', 'has 4 fields'],
    ['a word in a field', 'every weekday at 7 30', 'Invalid characters'],
    ['a minute and an hour out of range', '61 25 * * *', 'got value 61 expected range 0-59'],
    ['a day range with three ends', '30 7 * * mon-fri-sat', 'the range "mon-fri-sat" has more than two ends'],
    [
      'a numeric range with three ends in a list',
      '0 9 * * 1,2-4-5',
      'the range "2-4-5" has more than two ends',
    ],
    ['four fields (the parser would fill in the rest)', '0 7 * *', 'has 4 fields'],
    ['seven fields', '0 0 7 * * 1 2026', 'has 7 fields'],
    ['a day no month has', '0 0 31 2 *', 'Invalid explicit day of month definition'],
  ])('refuses %s', (_name, pattern, problem) => {
    expect(cronPatternProblem(pattern, 'Europe/London')).toContain(problem);
  });

  it.each([
    '30 7 * * 1-5',
    '30 7 * * mon-fri',
    '30 7 * * MON-FRI',
    '*/5 * * * * *',
    '0 9 * * 1-5/2',
    '0 0 L * *',
    '0 0 * * 5#3',
    '0 0 29 2 *',
    '@daily',
    '  30 7 * * 1-5  ',
  ])('accepts %s', (pattern) => {
    expect(cronPatternProblem(pattern, 'Europe/London')).toBeUndefined();
  });
});
