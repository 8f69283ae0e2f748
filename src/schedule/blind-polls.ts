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
  /**
   * True when the issuer list is read only at its own turn in the rotation, as one more member, rather
   * than at every gate check: the interval then counts it, and `spendable` sets no gate checks aside.
   */
  listInRotation?: boolean;
}

/** One blind poll: the issuer and when to run it. */
export interface BlindPoll {
  id: string;
  atMs: number;
}

/** What the pace of the rotation reads: the tokens, the time they last, the minute cap. */
export type BlindPace = Omit<BlindInput, 'issuers' | 'nowMs' | 'tickMs' | 'listInRotation'>;

/**
 * The most of the blind rotation's tokens the issuer list may take when it is read at its own turn: with
 * 99 issuers or more it is one member; with fewer it is read once every few rounds, so a round-robin on
 * the same budget (which never reads the list) is at most 1% faster.
 */
const LIST_SHARE = 0.01;

/** The issuer list's weight in the rotation: its reads per round of the issuers. */
export function listWeight(size: number): number {
  return Math.min(1, (size * LIST_SHARE) / (1 - LIST_SHARE));
}

/**
 * The shortest time between two blind polls of one issuer, however large the budget: a poll takes
 * about that long to answer, and a budget far beyond the watchlist's needs must not plan thousands of
 * polls a tick (the chaos suite saw 16,666 a second at 50,000 a minute for 50 issuers).
 */
export const MIN_TURN_MS = 1_000;

/**
 * How often each issuer's turn comes: the watchlist over the pace the day's and the minute's budget
 * allow, never more often than {@link MIN_TURN_MS}.
 */
export function blindIntervalMs(input: BlindPace, size: number): number {
  if (size === 0 || input.spendable <= 0 || input.perMinute <= 0) return Number.POSITIVE_INFINITY;
  const byDay = (size * Math.max(input.untilDayEndMs, 1)) / input.spendable;
  const byMinute = (size * input.minuteMs) / input.perMinute;
  return Math.max(byDay, byMinute, MIN_TURN_MS);
}

/**
 * The polls of this tick, in time order, as a round-robin at the budget's pace: issuers take their
 * turns longest unpolled first, one turn every `interval / W` at the soonest (so neither a backlog nor
 * issuers polled together are bunched), each at its own turn (`polledAt + interval`) when that is later,
 * and again every interval within the tick. Never more than `spendable`. Pure.
 */
export function selectBlindPolls(input: BlindInput): BlindPoll[] {
  const size = input.issuers.length;
  const interval = blindIntervalMs(input, size + (input.listInRotation ? listWeight(size) : 0));
  if (!Number.isFinite(interval)) return [];
  const spacing = interval / size;
  const end = input.nowMs + input.tickMs;
  const dueAt = (issuer: BlindIssuer) =>
    issuer.polledAtMs === null ? input.nowMs : issuer.polledAtMs + interval;
  const ordered = [...input.issuers].sort((a, b) => dueAt(a) - dueAt(b) || compare(a.id, b.id));
  const polls: BlindPoll[] = [];
  let previous = Number.NEGATIVE_INFINITY;
  for (const issuer of ordered) {
    const first = Math.max(dueAt(issuer), input.nowMs, previous + spacing);
    previous = first;
    for (let at = first; at < end; at += interval) polls.push({ id: issuer.id, atMs: Math.round(at) });
  }
  polls.sort((a, b) => a.atMs - b.atMs || compare(a.id, b.id));
  return polls.slice(0, Math.max(0, Math.floor(input.spendable)));
}

/** How often the issuer list's turn comes in a rotation of `size` issuers (no issuers: the list alone). */
export function blindListIntervalMs(input: BlindPace, size: number): number {
  const weight = listWeight(size);
  if (weight === 0) return blindIntervalMs(input, 1);
  return blindIntervalMs(input, size + weight) / weight;
}

/** When the list's turn comes: the tick nearest to one interval after its last read. */
export interface BlindListInput {
  nowMs: number;
  /** When the list was last read; null when never. */
  lastCheckMs: number | null;
  tickMs: number;
  /** How often its turn comes ({@link blindListIntervalMs}). */
  intervalMs: number;
}

/**
 * Whether this tick reads the issuer list while it carries no version. Read at every gate check, the
 * list would take a token each tick that no poll may spend (720 a day at the default 2-minute tick, of
 * 950): blind detection would be several times slower than a round-robin on the same budget. Taking its
 * turn in the rotation (one member, or less for a small watchlist: {@link listWeight}), it costs at most
 * what one issuer costs, and a returning version is seen at its next turn. Pure.
 */
export function blindListDue(input: BlindListInput): boolean {
  if (input.lastCheckMs === null) return true;
  return input.nowMs - input.lastCheckMs >= input.intervalMs - input.tickMs / 2;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
