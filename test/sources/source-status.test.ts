import { describe, expect, it } from 'vitest';
import { sourceState } from '../../src/jobs/registers/source-status.js';

const SOURCE = { name: 'afm', kind: 'afm-current', interval: 60_000 } as const;
const NOW = Date.parse('2026-09-16T12:00:00.000Z');
const at = (minutesAgo: number) => new Date(NOW - minutesAgo * 60_000).toISOString();

describe('sourceState', () => {
  it.each([
    ['never attempted', null, 'never', null],
    ['read a minute ago', { status: 'read', at: at(1), since: at(10), lastGoodAt: at(1) }, 'read', null],
    [
      'refused once, read two minutes ago',
      {
        status: 'not-read',
        reason: 'shrank',
        detail: '90 rows where the last good read had 192',
        at: at(1),
        since: at(1),
        lastGoodAt: at(2),
      },
      'not-read',
      'shrank: 90 rows where the last good read had 192',
    ],
    [
      'refused for four intervals',
      {
        status: 'not-read',
        reason: 'html-page',
        detail: 'an HTML page',
        at: at(0),
        since: at(4),
        lastGoodAt: at(4),
      },
      'stale',
      'html-page: an HTML page',
    ],
    [
      'read, but not for four intervals',
      { status: 'read', at: at(4), since: at(40), lastGoodAt: at(4) },
      'stale',
      null,
    ],
    [
      'refused since start, never read',
      { status: 'not-read', reason: 'timeout', detail: 'x', at: at(0), since: at(5) },
      'stale',
      'timeout: x',
    ],
  ] as const)('%s → %s', (_, health, state, reason) => {
    const status = sourceState(SOURCE, health === null ? null : { ...health }, NOW);
    expect(status.state).toBe(state);
    expect(status.reason).toBe(reason);
  });
});
