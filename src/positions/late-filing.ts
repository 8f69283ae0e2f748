import { DAY_MS } from '../time/units.js';
import type { Disclosure } from './types.js';

/**
 * A filing later than this many days after its position date is late. The SSR asks for it by 15:30 on
 * the next trading day (art. 9(2)); four calendar days cover a weekend and a holiday beside it.
 */
export const LATE_FILING_DAYS = 4;

/** A disclosure filed late: its position date, when it was filed, and how many days apart. */
export interface LateFiling {
  date: string;
  reportedOn: string;
  days: number;
}

/** The disclosure's late filing, or undefined when it was filed in time or the register does not say when. */
export function lateFiling(disclosure: Disclosure | null | undefined): LateFiling | undefined {
  const reportedOn = disclosure?.reportedOn;
  if (disclosure === null || disclosure === undefined || reportedOn === undefined) return undefined;
  const days = Math.round((Date.parse(reportedOn) - Date.parse(disclosure.date)) / DAY_MS);
  if (!Number.isFinite(days) || days <= LATE_FILING_DAYS) return undefined;
  return { date: disclosure.date, reportedOn, days };
}
