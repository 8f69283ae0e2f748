import type { IssuerHealth, PollFailureCause } from './poll-health.js';

// One polling state per issuer, decided from what poll health recorded, the issuer's snapshot and the
// issuer list the sweep read. Pure: the sweep reads (poll health, snapshots, the list), decides here,
// then writes (the polls it queues, the due marks). See docs/architecture.md, "The polling state".

/** Where one watched issuer stands. */
export type PollingStateName =
  /** No snapshot yet. */
  | 'new'
  /** Its snapshot shows the list's version (or the list has none and its turn has not come). */
  | 'current'
  /** A sweep planned a poll that has not succeeded yet. */
  | 'due'
  /**
   * Its last answer carried an older dataset than the list: asked again at the next gate check; if that
   * answer lags too, not before the list moves again (or the hard bound), so an upstream whose answers
   * always lag costs one extra poll per refresh, and a notice.
   */
  | 'lagging'
  /** Its polls fail: asked again after a backoff. */
  | 'failing'
  /** The upstream answers 404: asked again after a backoff. */
  | 'not-found'
  /** The list carries no version: polled in turn at the budget's pace. */
  | 'blind';

/** One issuer's polling state, with when it may be asked next when it is waiting out a backoff. */
export interface PollingState {
  state: PollingStateName;
  /** Epoch ms before which the sweep plans no poll (failing, not found); absent when it may be polled now. */
  waitUntil?: number;
  /** The cause of its failures, for `failing`. */
  cause?: PollFailureCause;
}

/** What the decision reads of one issuer. */
export interface PollingInput {
  health: IssuerHealth | undefined;
  hasSnapshot: boolean;
  /** The issuer list's `last_updated`, null when it carries none. */
  listVersion: string | null;
  nowMs: number;
  /** The sweep interval: a backoff ending within half of it ends at this sweep. */
  intervalMs: number;
}

/** Causes where a new dataset version may have fixed what failed: one early try each version. */
const TRANSIENT: ReadonlySet<PollFailureCause> = new Set([
  'server',
  'timeout',
  'network',
  'unexpected-status',
]);

/** The issuer's state, and whether it waits out a backoff now. */
export function pollingState(input: PollingInput): PollingState {
  const { health, nowMs } = input;
  const slack = input.intervalMs / 2;
  if (health?.notFound && health.notFound.retryAt - slack > nowMs)
    return { state: 'not-found', waitUntil: health.notFound.retryAt };
  if (health?.failing) {
    const { retryAt, cause } = health.failing;
    const waiting = retryAt !== undefined && retryAt - slack > nowMs && !earlyTry(input);
    return { state: 'failing', cause, ...(waiting ? { waitUntil: retryAt } : {}) };
  }
  if (health?.lagging) {
    const { retryAt, expected } = health.lagging;
    // A list that moved past the version the answer fell short of is news: asked at once.
    const moved = input.listVersion !== null && Date.parse(input.listVersion) > Date.parse(expected);
    return { state: 'lagging', ...(!moved && retryAt - slack > nowMs ? { waitUntil: retryAt } : {}) };
  }
  if (!input.hasSnapshot) return { state: 'new' };
  if (input.listVersion === null) return { state: 'blind' };
  return { state: health?.dueSince ? 'due' : 'current' };
}

/** A transient failure earns one early try when the list moved past the version it failed at. */
function earlyTry(input: PollingInput): boolean {
  const failing = input.health?.failing;
  if (!failing || !TRANSIENT.has(failing.cause) || input.listVersion === null) return false;
  const failedAt = failing.version ? Date.parse(failing.version) : Number.NaN;
  return !(Date.parse(input.listVersion) <= failedAt);
}

/** True when the sweep may plan a poll of the issuer now (its due-ness is the scheduler's to decide). */
export function mayPoll(state: PollingState): boolean {
  return state.waitUntil === undefined;
}

/**
 * How long a failing issuer waits after its `count`-th failure in a row: one sweep interval, doubling,
 * up to the hard bound (`poll.maxStaleness`), so a persistent failure costs a few requests a day rather
 * than one every sweep.
 */
export function failureBackoffMs(count: number, intervalMs: number, maxStalenessMs: number): number {
  return Math.min(maxStalenessMs, intervalMs * 2 ** Math.max(0, count - 1));
}

/**
 * How long a lagging issuer waits after its `count`-th lagging answer for one list version: the next
 * sweep, then until the list moves (which {@link pollingState} lets through) or the hard bound.
 */
export function lagBackoffMs(count: number, intervalMs: number, maxStalenessMs: number): number {
  return count <= 1 ? intervalMs : maxStalenessMs;
}
