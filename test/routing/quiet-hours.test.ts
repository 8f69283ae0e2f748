import { describe, expect, it } from 'vitest';
import type { QuietHours } from '../../src/config/schema.js';
import { quietUntil } from '../../src/routing/quiet-hours.js';

const everyDay: QuietHours['days'] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

function quiet(
  start: string,
  end: string,
  timezone: string,
  days: QuietHours['days'] = everyDay,
): QuietHours {
  return { start, end, timezone, days };
}

interface Case {
  name: string;
  quiet: QuietHours;
  at: string;
  until: string | null;
}

const nightly = quiet('22:00', '07:00', 'UTC');
const fridayNights = quiet('22:00', '07:00', 'UTC', ['fri']);
const lunch = quiet('12:00', '14:00', 'UTC', ['mon', 'tue', 'wed', 'thu', 'fri']);
const weekend = quiet('00:00', '00:00', 'UTC', ['sat', 'sun']);

// 2026-03-06 is a Friday.
const utcCases: Case[] = [
  {
    name: 'inside, before midnight',
    quiet: nightly,
    at: '2026-03-03T23:00:00Z',
    until: '2026-03-04T07:00:00.000Z',
  },
  {
    name: 'inside, after midnight',
    quiet: nightly,
    at: '2026-03-04T03:00:00Z',
    until: '2026-03-04T07:00:00.000Z',
  },
  {
    name: 'exactly at start is quiet',
    quiet: nightly,
    at: '2026-03-03T22:00:00Z',
    until: '2026-03-04T07:00:00.000Z',
  },
  { name: 'just before start', quiet: nightly, at: '2026-03-03T21:59:59.999Z', until: null },
  {
    name: 'just before end',
    quiet: nightly,
    at: '2026-03-04T06:59:59.999Z',
    until: '2026-03-04T07:00:00.000Z',
  },
  { name: 'exactly at end is not quiet', quiet: nightly, at: '2026-03-04T07:00:00Z', until: null },
  { name: 'midday', quiet: nightly, at: '2026-03-04T12:00:00Z', until: null },
  {
    name: 'listed day, evening',
    quiet: fridayNights,
    at: '2026-03-06T23:00:00Z',
    until: '2026-03-07T07:00:00.000Z',
  },
  {
    name: 'morning after a listed day (period started the day before)',
    quiet: fridayNights,
    at: '2026-03-07T03:00:00Z',
    until: '2026-03-07T07:00:00.000Z',
  },
  { name: 'unlisted day, evening', quiet: fridayNights, at: '2026-03-07T23:00:00Z', until: null },
  {
    name: 'listed day, morning (period of an unlisted day)',
    quiet: fridayNights,
    at: '2026-03-06T03:00:00Z',
    until: null,
  },
  {
    name: 'same-day period on a weekday',
    quiet: lunch,
    at: '2026-03-02T13:00:00Z',
    until: '2026-03-02T14:00:00.000Z',
  },
  { name: 'same-day period on a weekend', quiet: lunch, at: '2026-03-07T13:00:00Z', until: null },
  { name: 'same-day period, after end', quiet: lunch, at: '2026-03-02T14:00:00Z', until: null },
  {
    name: 'whole days merged over a weekend',
    quiet: weekend,
    at: '2026-03-07T10:00:00Z',
    until: '2026-03-09T00:00:00.000Z',
  },
  {
    name: 'whole days, last evening',
    quiet: weekend,
    at: '2026-03-08T23:59:00Z',
    until: '2026-03-09T00:00:00.000Z',
  },
  { name: 'whole days, the Friday before', quiet: weekend, at: '2026-03-06T23:59:59Z', until: null },
];

const london = (start: string, end: string) => quiet(start, end, 'Europe/London');
// London 2026: clocks go 01:00 GMT → 02:00 BST on 29 Mar, and 02:00 BST → 01:00 GMT on 25 Oct.
const londonCases: Case[] = [
  {
    name: 'night into spring-forward: end 07:00 BST',
    quiet: london('22:00', '07:00'),
    at: '2026-03-28T23:00:00Z',
    until: '2026-03-29T06:00:00.000Z',
  },
  {
    name: 'start in the spring gap moves to 02:00 BST: just before',
    quiet: london('01:30', '06:00'),
    at: '2026-03-29T00:59:59Z',
    until: null,
  },
  {
    name: 'start in the spring gap moves to 02:00 BST: at it',
    quiet: london('01:30', '06:00'),
    at: '2026-03-29T01:00:00Z',
    until: '2026-03-29T05:00:00.000Z',
  },
  {
    name: 'end in the spring gap moves to 02:00 BST',
    quiet: london('22:00', '01:30'),
    at: '2026-03-29T00:45:00Z',
    until: '2026-03-29T01:00:00.000Z',
  },
  {
    name: 'end in the spring gap: at the new end',
    quiet: london('22:00', '01:30'),
    at: '2026-03-29T01:00:00Z',
    until: null,
  },
  {
    name: 'night over fall-back lasts 10 hours',
    quiet: london('22:00', '07:00'),
    at: '2026-10-24T21:00:00Z',
    until: '2026-10-25T07:00:00.000Z',
  },
  {
    name: 'end in the repeated hour is its first occurrence',
    quiet: london('22:00', '01:30'),
    at: '2026-10-25T00:00:00Z',
    until: '2026-10-25T00:30:00.000Z',
  },
  {
    name: 'second 01:30 is after the end',
    quiet: london('22:00', '01:30'),
    at: '2026-10-25T01:15:00Z',
    until: null,
  },
  {
    name: 'start in the repeated hour is its first occurrence: at it',
    quiet: london('01:30', '06:00'),
    at: '2026-10-25T00:30:00Z',
    until: '2026-10-25T06:00:00.000Z',
  },
  {
    name: 'start in the repeated hour: just before the first occurrence',
    quiet: london('01:30', '06:00'),
    at: '2026-10-25T00:29:59Z',
    until: null,
  },
  {
    name: 'after fall-back, local equals UTC',
    quiet: london('22:00', '07:00'),
    at: '2026-10-25T23:00:00Z',
    until: '2026-10-26T07:00:00.000Z',
  },
  {
    name: 'summer: 21:30Z is 22:30 BST',
    quiet: london('22:00', '07:00'),
    at: '2026-06-10T21:30:00Z',
    until: '2026-06-11T06:00:00.000Z',
  },
  {
    name: 'summer: 20:59 BST is before a 21:00 start',
    quiet: london('21:00', '23:00'),
    at: '2026-06-10T19:59:00Z',
    until: null,
  },
];

const newYork = (start: string, end: string) => quiet(start, end, 'America/New_York');
// New York 2026: 02:00 EST → 03:00 EDT on 8 Mar (07:00Z), 02:00 EDT → 01:00 EST on 1 Nov (06:00Z).
const newYorkCases: Case[] = [
  {
    name: 'night into spring-forward: end 07:00 EDT',
    quiet: newYork('22:00', '07:00'),
    at: '2026-03-08T05:00:00Z',
    until: '2026-03-08T11:00:00.000Z',
  },
  {
    name: 'start in the spring gap moves to 03:00 EDT: just before',
    quiet: newYork('02:30', '06:00'),
    at: '2026-03-08T06:59:59Z',
    until: null,
  },
  {
    name: 'start in the spring gap moves to 03:00 EDT: at it',
    quiet: newYork('02:30', '06:00'),
    at: '2026-03-08T07:00:00Z',
    until: '2026-03-08T10:00:00.000Z',
  },
  {
    name: 'start in the repeated hour: first 01:30 (EDT)',
    quiet: newYork('01:30', '05:00'),
    at: '2026-11-01T05:30:00Z',
    until: '2026-11-01T10:00:00.000Z',
  },
  {
    name: 'repeated hour, second pass, still inside',
    quiet: newYork('01:30', '05:00'),
    at: '2026-11-01T06:15:00Z',
    until: '2026-11-01T10:00:00.000Z',
  },
  {
    name: 'end in the repeated hour: just before the first 01:30',
    quiet: newYork('22:00', '01:30'),
    at: '2026-11-01T05:29:00Z',
    until: '2026-11-01T05:30:00.000Z',
  },
  {
    name: 'end in the repeated hour: the second 01:45 is outside',
    quiet: newYork('22:00', '01:30'),
    at: '2026-11-01T06:45:00Z',
    until: null,
  },
];

describe('quietUntil', () => {
  it.each([...utcCases, ...londonCases, ...newYorkCases])(
    '$quiet.timezone: $name',
    ({ quiet: q, at, until }) => {
      expect(quietUntil(q, new Date(at))?.toISOString() ?? null).toBe(until);
    },
  );
});
