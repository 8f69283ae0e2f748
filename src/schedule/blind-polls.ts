// Polls when the issuer list carries no version (`last_updated: null`, which the spec allows): the gate
// cannot tell when the dataset moved, so every watched issuer is polled in turn at the pace today's
// budget pays for, as a round-robin would, the polls of one tick spread over it rather than bunched at
// its start. An issuer's turn comes every `blindIntervalMs`; with a small watchlist and a large budget
// that is every few seconds, far more often than the sweep ticks.

/** What the blind schedule needs of one issuer. */
export interface BlindIssuer {
  id: string;
  /** When it was last polled (epoch ms); null without a snapshot. */
  polledAtMs: number | null;
}

/** What the blind schedule needs of the budget and the clock. */
export interface BlindInput {
  issuers: readonly BlindIssuer[];
  nowMs: number;
  /** Tokens polling may still spend today (after the reserve, the gate checks due and the queue). */
  spendable: number;
  /** How long until today's day window ends: the spendable tokens last until then. */
  untilDayEndMs: number;
  /** The sweep's tick: the polls planned now cover [now, now + tick). */
  tickMs: number;
  /** Polls a minute window may carry (the minute cap less the gate's share), and its length. */
  perMinute: number;
  minuteMs: number;
}

/** One blind poll: the issuer and when to run it. */
export interface BlindPoll {
  id: string;
  atMs: number;
}

/** How often each issuer's turn comes: the watchlist over the pace the day's and the minute's budget allow. */
export function blindIntervalMs(
  input: Omit<BlindInput, 'issuers' | 'nowMs' | 'tickMs'>,
  size: number,
): number {
  if (size === 0 || input.spendable <= 0 || input.perMinute <= 0) return Number.POSITIVE_INFINITY;
  const byDay = (size * Math.max(input.untilDayEndMs, 1)) / input.spendable;
  const byMinute = (size * input.minuteMs) / input.perMinute;
  return Math.max(byDay, byMinute);
}

/**
 * The polls of this tick, in time order: each issuer at its turn (`polledAt + interval`, at once when
 * overdue or never polled), and again every interval within the tick. Never more than `spendable`.
 * Pure.
 */
export function selectBlindPolls(input: BlindInput): BlindPoll[] {
  const interval = blindIntervalMs(input, input.issuers.length);
  if (!Number.isFinite(interval)) return [];
  const end = input.nowMs + input.tickMs;
  const polls: BlindPoll[] = [];
  // The longest unpolled first: an overdue issuer's turn is now, in the order they fell behind.
  const ordered = [...input.issuers].sort(
    (a, b) => (a.polledAtMs ?? -Infinity) - (b.polledAtMs ?? -Infinity),
  );
  for (const [rank, issuer] of ordered.entries()) {
    const due = issuer.polledAtMs === null ? input.nowMs : issuer.polledAtMs + interval;
    // Overdue issuers take successive slots of one interval's width, so a backlog is spread, not bunched.
    const first = Math.max(due, input.nowMs + (due < input.nowMs ? (rank * interval) / ordered.length : 0));
    for (let at = first; at < end; at += interval) polls.push({ id: issuer.id, atMs: Math.round(at) });
  }
  polls.sort((a, b) => a.atMs - b.atMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return polls.slice(0, Math.max(0, Math.floor(input.spendable)));
}
