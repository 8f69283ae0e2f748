import { describe, expect, it } from 'vitest';
import {
  isBusinessWindow,
  nextPublication,
  type PublicationClock,
  parseTimeOfDay,
  previousPublication,
  zoneOffsetMs,
} from '../../src/sandbox/publication-clock.js';

const REAL_DAY = 86_400_000;
const at = (iso: string): number => Date.parse(iso);
const amsterdam = (dayMs: number): PublicationClock => ({
  dayMs,
  localMinutes: 15 * 60 + 30,
  timeZone: 'Europe/Amsterdam',
});

describe('publication clock', () => {
  it.each([
    ['15:30', 930],
    ['9:05', 545],
    ['00:00', 0],
    ['23:59', 1439],
    ['24:00', undefined],
    ['15:60', undefined],
    ['3pm', undefined],
  ] as const)('reads the time of day %s', (text, minutes) => {
    expect(parseTimeOfDay(text)).toBe(minutes);
  });

  it.each([
    ['Amsterdam in winter', '2026-01-05', 'Europe/Amsterdam', 3_600_000],
    ['Amsterdam in summer', '2026-07-06', 'Europe/Amsterdam', 7_200_000],
    ['Stockholm in summer', '2026-07-06', 'Europe/Stockholm', 7_200_000],
    ['Kolkata (half an hour)', '2026-01-05', 'Asia/Kolkata', 19_800_000],
    ['New York in winter', '2026-01-05', 'America/New_York', -18_000_000],
  ] as const)('knows the offset of %s', (_name, date, zone, offset) => {
    expect(zoneOffsetMs(date, zone)).toBe(offset);
  });

  it.each([
    [
      'a winter Monday morning: 14:30 UTC that day',
      '2026-01-05T09:00:00Z',
      '2026-01-05',
      '2026-01-05T14:30:00Z',
    ],
    ['a summer Monday morning: 13:30 UTC', '2026-07-06T09:00:00Z', '2026-07-06', '2026-07-06T13:30:00Z'],
    ['a Tuesday after the time: Wednesday', '2026-01-06T15:00:00Z', '2026-01-07', '2026-01-07T14:30:00Z'],
    [
      'a Friday evening: Monday, past the weekend',
      '2026-01-09T20:00:00Z',
      '2026-01-12',
      '2026-01-12T14:30:00Z',
    ],
    ['exactly at a publication: the next one', '2026-01-05T14:30:00Z', '2026-01-06', '2026-01-06T14:30:00Z'],
  ] as const)('on a real day, after %s', (_name, after, date, expected) => {
    expect(new Date(nextPublication(amsterdam(REAL_DAY), at(after), date)).toISOString()).toBe(
      new Date(at(expected)).toISOString(),
    );
  });

  it('on a 60 s day publishes at the same share of the day window, business windows only', () => {
    const clock = amsterdam(60_000);
    const day = 29_000_000; // a day window counted from the epoch
    const found: number[] = [];
    let after = day * 60_000;
    for (let i = 0; i < 10; i++) {
      after = nextPublication(clock, after, '2026-01-05');
      found.push(after);
    }
    for (const instant of found) {
      // 14:30 UTC is 60.4167% of a day: 36,250 ms into each 60 s window.
      expect(instant % 60_000).toBe(36_250);
      expect(isBusinessWindow(Math.floor(instant / 60_000))).toBe(true);
    }
    // Ten publications span two weekends of two windows each.
    expect((found.at(-1) ?? 0) - (found[0] ?? 0)).toBe(13 * 60_000);
  });

  it('the last publication before an instant is the one a register watched from then shows', () => {
    const clock = amsterdam(REAL_DAY);
    const monday = at('2026-01-12T10:00:00Z');
    expect(new Date(previousPublication(clock, monday, '2026-01-12')).toISOString()).toBe(
      '2026-01-09T14:30:00.000Z',
    );
    const published = at('2026-01-12T14:30:00Z');
    expect(previousPublication(clock, published, '2026-01-12')).toBe(published);
  });
});
