import { DAY_MS } from '../time/units.js';
// An issuer's change rate (changes a day), estimated from what shortwatch already sees. Registers
// are very skewed (register-shape.ts): a crowded name changes most business days, most issuers a
// few times a year. Each source is a count of changes over an exposure in days, pooled as a
// gamma-Poisson posterior: rate = (prior changes + counted changes) / (prior days + exposure days).

/** Changes counted over an exposure in days: one piece of evidence of a rate. */
export interface ChangeCount {
  changes: number;
  days: number;
}

/** What is known of one issuer's past changes. */
export interface RateEvidence {
  /** Disclosure dates (`YYYY-MM-DD`) of the issuer's listed holders, newest per holder. */
  holderDates: readonly string[];
  /** Changes shortwatch itself saw (polls that found events) over the days it has watched the issuer. */
  observed?: ChangeCount;
  /** The issuer's `status=all` history, summed up by {@link historyEvidence} when it was fetched. */
  history?: ChangeCount;
}

/** The prior: a quiet issuer, worth this many days of evidence. */
export interface RatePrior {
  /** Changes a day of an issuer nothing is known of (a register's median issuer). */
  perDay: number;
  /** How many days of observation the prior weighs. */
  days: number;
}

/** A few changes a year, weighed like ten days of watching: what an unknown issuer is taken to be. */
export const DEFAULT_PRIOR: RatePrior = { perDay: 0.01, days: 10 };

/** How far back a history or a holder's date counts: older changes say little of today's rate. */
const HORIZON_DAYS = 365;

/**
 * Each listed holder is one renewal: the days since its last disclosure are one waiting time of its
 * own changes, so k holders waiting w days in all count k changes over w holder-days. The issuer's
 * rate is that per-holder rate times k, since each holder changes on its own.
 */
function fromHolders(dates: readonly string[], nowMs: number): { changes: number; days: number } {
  let waited = 0;
  for (const date of dates) {
    const at = Date.parse(`${date}T00:00:00Z`);
    if (Number.isNaN(at)) continue;
    waited += Math.min(HORIZON_DAYS, Math.max(0.5, (nowMs - at) / DAY_MS));
  }
  const k = dates.length;
  // k changes over `waited` holder-days is k / waited a holder-day, k² / waited an issuer-day.
  return k === 0 ? { changes: 0, days: 0 } : { changes: k, days: waited / k };
}

/**
 * A `status=all` history's evidence: its distinct disclosure days in the year before `asOfMs`, over the
 * days it covers. The poll that fetched the history stores this in the snapshot, taken as of the day
 * shortwatch began watching the issuer, so it never counts a change the observed count also holds.
 */
export function historyEvidence(dates: readonly string[], asOfMs: number): ChangeCount {
  const since = asOfMs - HORIZON_DAYS * DAY_MS;
  let first = asOfMs;
  const days = new Set<string>();
  for (const date of dates) {
    const at = Date.parse(`${date}T00:00:00Z`);
    if (Number.isNaN(at) || at < since || at > asOfMs) continue;
    days.add(date);
    first = Math.min(first, at);
  }
  const covered = dates.length === 0 ? 0 : Math.max(1, (asOfMs - Math.min(first, since)) / DAY_MS);
  return { changes: days.size, days: Math.min(HORIZON_DAYS, covered) };
}

/** Polls that found events since `since` (an ISO instant), over the days since then. */
export function observedEvidence(watch: { since: string; changes: number }, nowMs: number): ChangeCount {
  const since = Date.parse(watch.since);
  if (Number.isNaN(since)) return { changes: 0, days: 0 };
  return { changes: watch.changes, days: Math.max(0, (nowMs - since) / DAY_MS) };
}

/** The issuer's estimated changes a day (always above 0, so every issuer keeps some weight). */
export function estimateChangeRate(evidence: RateEvidence, nowMs: number, prior = DEFAULT_PRIOR): number {
  let changes = prior.perDay * prior.days;
  let days = prior.days;
  for (const part of [
    fromHolders(evidence.holderDates, nowMs),
    evidence.observed ?? { changes: 0, days: 0 },
    evidence.history ?? { changes: 0, days: 0 },
  ]) {
    changes += part.changes;
    days += part.days;
  }
  return changes / days;
}
