import { describe, expect, it } from 'vitest';
import { type LocalDateTime, zonedParts, zonedTimeToInstant } from '../../src/routing/zoned-time.js';

describe('zonedTimeToInstant', () => {
  it.each<{ name: string; tz: string; local: LocalDateTime; instant: string }>([
    {
      name: 'London winter',
      tz: 'Europe/London',
      local: { year: 2026, month: 1, day: 15, hour: 9, minute: 0 },
      instant: '2026-01-15T09:00:00.000Z',
    },
    {
      name: 'London summer',
      tz: 'Europe/London',
      local: { year: 2026, month: 6, day: 1, hour: 12, minute: 0 },
      instant: '2026-06-01T11:00:00.000Z',
    },
    {
      name: 'London gap → change instant',
      tz: 'Europe/London',
      local: { year: 2026, month: 3, day: 29, hour: 1, minute: 30 },
      instant: '2026-03-29T01:00:00.000Z',
    },
    {
      name: 'London gap start → change instant',
      tz: 'Europe/London',
      local: { year: 2026, month: 3, day: 29, hour: 1, minute: 0 },
      instant: '2026-03-29T01:00:00.000Z',
    },
    {
      name: 'London just after gap',
      tz: 'Europe/London',
      local: { year: 2026, month: 3, day: 29, hour: 2, minute: 0 },
      instant: '2026-03-29T01:00:00.000Z',
    },
    {
      name: 'London repeated → first',
      tz: 'Europe/London',
      local: { year: 2026, month: 10, day: 25, hour: 1, minute: 30 },
      instant: '2026-10-25T00:30:00.000Z',
    },
    {
      name: 'New York gap → 03:00 EDT',
      tz: 'America/New_York',
      local: { year: 2026, month: 3, day: 8, hour: 2, minute: 30 },
      instant: '2026-03-08T07:00:00.000Z',
    },
    {
      name: 'New York repeated → EDT',
      tz: 'America/New_York',
      local: { year: 2026, month: 11, day: 1, hour: 1, minute: 30 },
      instant: '2026-11-01T05:30:00.000Z',
    },
    {
      name: 'half-hour zone',
      tz: 'Asia/Kolkata',
      local: { year: 2026, month: 1, day: 1, hour: 0, minute: 0 },
      instant: '2025-12-31T18:30:00.000Z',
    },
  ])('$name', ({ tz, local, instant }) => {
    expect(zonedTimeToInstant(local, tz).toISOString()).toBe(instant);
  });
});

describe('zonedParts', () => {
  it.each([
    {
      name: 'first instant of BST',
      at: '2026-03-29T01:00:00Z',
      tz: 'Europe/London',
      expected: { day: 29, hour: 2, minute: 0, weekday: 'sun' },
    },
    {
      name: 'first 01:30 on fall-back',
      at: '2026-10-25T00:30:00Z',
      tz: 'Europe/London',
      expected: { day: 25, hour: 1, minute: 30, weekday: 'sun' },
    },
    {
      name: 'second 01:30 on fall-back',
      at: '2026-10-25T01:30:00Z',
      tz: 'Europe/London',
      expected: { day: 25, hour: 1, minute: 30, weekday: 'sun' },
    },
    {
      name: 'previous local day in New York',
      at: '2026-03-07T03:00:00Z',
      tz: 'America/New_York',
      expected: { day: 6, hour: 22, minute: 0, weekday: 'fri' },
    },
    {
      name: 'midnight is hour 0',
      at: '2026-03-09T00:00:00Z',
      tz: 'UTC',
      expected: { day: 9, hour: 0, minute: 0, weekday: 'mon' },
    },
  ])('$name', ({ at, tz, expected }) => {
    expect(zonedParts(new Date(at), tz)).toMatchObject(expected);
  });
});
