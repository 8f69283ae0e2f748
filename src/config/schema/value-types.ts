import { z } from 'zod';
import { parseDuration } from '../duration.js';
import { Secret } from '../secret.js';

/** A secret string: from `${ENV}`, `${file:/path}` or a sibling `*File` key; never printed. */
export const secret = z
  .string()
  .min(1, 'must not be empty')
  .transform((value) => new Secret(value));

/** A duration written `90s`, `2m`, `6h`, `7d`, `250ms`, or a number of milliseconds. */
export const duration = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const ms = parseDuration(value);
  if (ms === undefined) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not a duration (use e.g. 90s, 2m, 6h, 7d)` });
    return z.NEVER;
  }
  return ms;
});

/**
 * Zone names found valid: building an `Intl.DateTimeFormat` to ask costs tens of microseconds, and every
 * stored subscriber read carries a zone (a fan-out reads thousands). At most the few hundred IANA names.
 */
const knownZones = new Set<string>();

/** An IANA time zone name that this Node.js knows, e.g. `Europe/London`. */
export const ianaTimezone = z.string().refine(
  (tz) => {
    if (knownZones.has(tz)) return true;
    try {
      new Intl.DateTimeFormat('en-GB', { timeZone: tz });
    } catch {
      return false;
    }
    knownZones.add(tz);
    return true;
  },
  { message: 'is not an IANA time zone (e.g. Europe/London)' },
);

/** A percentage from 0 to 100. */
export const percent = z.number().finite().min(0).max(100);

/** A positive whole number, also as digits, so that `${SHORTWATCH_BUDGET_PER_DAY:-1000}` (text) works. */
export const positiveCount = z
  .union([z.number(), z.string().regex(/^\d+$/, 'must be a whole number').transform(Number)])
  .pipe(z.number().int().positive());
