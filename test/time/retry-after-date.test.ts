import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/time/retry-after.js';

// An HTTP-date Retry-After is the server's clock: measured from the response's own Date header, a host
// whose clock is off still waits what the server meant.
const SERVER_NOW = 'Wed, 15 Jan 2025 12:00:00 GMT';
const HOST_AHEAD = Date.UTC(2025, 0, 15, 12, 1, 1);
const HOST_BEHIND = Date.UTC(2025, 0, 15, 11, 59, 0);

describe('parseRetryAfter with the response Date', () => {
  it.each<[string, string, number, string | string[] | undefined, number | undefined]>([
    ['a host 61 s ahead still waits 90 s', 'Wed, 15 Jan 2025 12:01:30 GMT', HOST_AHEAD, SERVER_NOW, 90_000],
    [
      'a host 60 s behind waits 90 s, not 150 s',
      'Wed, 15 Jan 2025 12:01:30 GMT',
      HOST_BEHIND,
      SERVER_NOW,
      90_000,
    ],
    ['without Date: from the host clock', 'Wed, 15 Jan 2025 12:01:30 GMT', HOST_BEHIND, undefined, 150_000],
    [
      'an unreadable Date: from the host clock',
      'Wed, 15 Jan 2025 12:01:30 GMT',
      HOST_BEHIND,
      'yesterday',
      150_000,
    ],
    [
      'conflicting Dates: from the host clock',
      'Wed, 15 Jan 2025 12:01:30 GMT',
      HOST_BEHIND,
      [SERVER_NOW, 'Thu, 16 Jan 2025 12:00:00 GMT'],
      150_000,
    ],
    ['before the server Date: unusable', 'Wed, 15 Jan 2025 11:59:59 GMT', HOST_BEHIND, SERVER_NOW, undefined],
    ['delta-seconds ignore Date', '30', HOST_AHEAD, SERVER_NOW, 30_000],
  ])('%s', (_name, header, hostNow, date, expected) => {
    expect(parseRetryAfter(header, hostNow, date)).toBe(expected);
  });
});
