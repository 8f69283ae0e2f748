import { describe, expect, it } from 'vitest';
import { addWeekdays, refreshTime } from '../../src/sandbox/dates.js';
import { bearerToken } from '../../src/sandbox/handler.js';
import { Random } from '../../src/sandbox/prng.js';
import { FixedWindowLimiter } from '../../src/sandbox/rate-limiter.js';
import { matchRoute } from '../../src/sandbox/routes.js';

describe('sandbox dates', () => {
  it.each([
    ['2026-01-05', 1, '2026-01-06'],
    ['2026-01-09', 1, '2026-01-12'],
    ['2026-01-10', 1, '2026-01-12'],
    ['2026-01-12', -1, '2026-01-09'],
    ['2026-01-05', 10, '2026-01-19'],
    ['2024-02-28', 1, '2024-02-29'],
  ])('%s plus %i weekdays is %s', (date, n, expected) => {
    expect(addWeekdays(date, n)).toBe(expected);
  });

  it('orders refresh times by date, then revision', () => {
    expect(refreshTime('2026-01-05', 0)).toBe('2026-01-05T17:30:00.000Z');
    expect(refreshTime('2026-01-05', 2) > refreshTime('2026-01-05', 1)).toBe(true);
  });
});

describe('sandbox routes', () => {
  it.each([
    ['/issuers', { operation: 'issuers' }],
    ['/issuers/ISS-0001/positions', { operation: 'positions', issuerId: 'ISS-0001' }],
    ['/issuers/a%2Fb/positions', { operation: 'positions', issuerId: 'a/b' }],
    ['/issuers/%C3%98rsted%20A%2FS/positions', { operation: 'positions', issuerId: 'Ørsted A/S' }],
    ['/issuers/a/b/positions', { operation: 'other' }],
    ['/issuers/', { operation: 'other' }],
    ['/', { operation: 'other' }],
    ['/issuers/%ZZ/positions', { operation: 'other', malformed: true }],
  ])('matches %s', (path, route) => {
    expect(matchRoute(path)).toEqual(route);
  });
});

describe('sandbox bearer token', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['Bearer   abc  ', 'abc'],
    ['Bearer', null],
    ['Bearer a b', null],
    ['Basic abc', null],
    [undefined, null],
  ])('reads %s as %s', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });
});

describe('sandbox fixed windows', () => {
  const config = { perMinute: 2, perDay: 3, minuteMs: 60_000, dayMs: 86_400_000 };

  it('refuses the request after the cap until the window resets, per key', () => {
    const limiter = new FixedWindowLimiter(config);
    const t = Date.UTC(2026, 0, 5, 23, 58, 20);
    expect(limiter.hit('k', t)).toBeUndefined();
    expect(limiter.hit('k', t + 1)).toBeUndefined();
    expect(limiter.hit('k', t + 2)).toEqual({ window: 'minute', limit: 2, retryAfterSeconds: 40 });
    expect(limiter.hit('other', t + 3)).toBeUndefined();
    expect(limiter.hit('k', t + 40_000)).toEqual({ window: 'day', limit: 3, retryAfterSeconds: 60 });
    expect(limiter.hit('k', Date.UTC(2026, 0, 6))).toBeUndefined();
  });
});

describe('sandbox random', () => {
  it('repeats its sequence for a seed', () => {
    const a = new Random(5);
    const b = new Random(5);
    const first = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Random(6).next()).not.toBe(first[0]);
  });
});
