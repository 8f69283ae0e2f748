import { formatDuration } from '../config/duration.js';
import { PlanError } from './plan-error.js';

/**
 * How early before the bound, in days, the sweep forces an issuer on a typical day when the budget cannot
 * sweep the watchlist for each refresh (schedule/poll-order.ts `dailyForceLeadMs`: polls spent after a
 * refresh in the afternoon). The planner adds it to the bound so that polls forced every `bound - lead`
 * keep to their share. It lives here, below the schedule, because the plan is made before any sweep.
 */
export const DAILY_FORCE_LEAD_DAYS = 1.5;

export { isPlanError, PlanError } from './plan-error.js';

/** What the planner needs: the watchlist size, the budget and the configured poll intervals (ms). */
export interface PlanInput {
  watchlistSize: number;
  perMinute: number;
  perDay: number;
  reserve: number;
  gate: boolean;
  gateIntervalMs: number;
  intervalMs: number;
  maxStalenessMs: number;
  dayMs: number;
  minuteMs: number;
  /** Most of each minute window's requests the gate may take (`budget.gateShare`). */
  gateShare: number;
}

/** Fewest gate checks a day, as a share of the requests available to polling, when polls need the rest. */
const MIN_CHECK_SHARE = 0.05;

/** Most of the day's polls that polls forced by the hard bound may take, when the budget cannot sweep daily. */
const FORCED_SHARE = 0.5;

/** Intervals that fit the budget, with what was changed and why. */
export interface Plan {
  /** False when the gate was configured but not even one gate check and one sweep fit a day. */
  gate: boolean;
  gateIntervalMs: number;
  /** How often the sweep job runs: the gate interval with the gate on, the effective interval without. */
  sweepIntervalMs: number;
  maxStalenessMs: number;
  /** Full sweeps a day the budget pays for (gate on: after the gate checks, and never more than them). */
  refreshesPerDay: number;
  gateChecksPerDay: number;
  /** Most gate checks in one minute window: the gate's bounded share of each minute. */
  gateChecksPerMinute: number;
  /** Polls a day the budget pays for after the gate checks. */
  pollsPerDay: number;
  /** Worst case planned within one day window; never more than perDay - reserve. */
  requestsPerDay: number;
  /**
   * The shortest interval at which full sweeps can repeat under the per-minute cap: ceil(W / perMinute)
   * minute windows. Not how long one sweep takes: a sweep that fits one window runs as fast as the
   * upstream answers.
   */
  minSweepMs: number;
  /** Which configured values the planner raised and why, one sentence each. */
  adjusted: string[];
  /** The plan in words, one sentence per line. */
  summary: string[];
}

/** The part of a plan that the gated and ungated planners decide. */
type Core = Omit<Plan, 'minSweepMs' | 'adjusted' | 'summary'>;

/**
 * Turns the watchlist size into intervals that fit the daily budget. Counts are worst cases per fixed
 * day window: `ceil(day / interval)` runs can start in one window, whatever its alignment.
 */
export function planPolling(input: PlanInput): Plan {
  const available = input.perDay - input.reserve;
  const size = input.watchlistSize;
  const minSweepMs = Math.ceil(size / input.perMinute) * input.minuteMs;
  const adjusted: string[] = [];
  let core: Core;
  if (input.gate && available >= 2) {
    core = planGated(input, available, adjusted);
  } else {
    // Without the gate every sweep polls the whole watchlist: it must fit a day.
    if (size > available) throw new PlanError(size, input.perDay, input.reserve);
    if (input.gate) {
      adjusted.push(
        `poll.gate turned off: one gate check and one poll need 2 requests a day but only ${available} is available to polling`,
      );
    }
    core = planUngated(input, available, minSweepMs, adjusted);
  }
  const plan = { ...core, minSweepMs, adjusted };
  return { ...plan, summary: describePlan(input, plan, available) };
}

function planGated(input: PlanInput, available: number, adjusted: string[]): Core {
  const { dayMs, watchlistSize: size } = input;
  const { tickMs, perMinute: gateChecksPerMinute } = gateTick(input, adjusted);
  const slots = Math.ceil(dayMs / tickMs);
  let checks = slots;
  if (available - slots < size) {
    // Polls need the requests more than the gate: keep a floor of checks and place them where the
    // dataset refreshes (learned from its last_updated), at most one a tick.
    const floor = Math.min(slots, Math.max(1, Math.ceil(available * MIN_CHECK_SHARE)));
    checks = Math.min(slots, Math.max(floor, available - size));
    adjusted.push(
      `gate checks cut from ${slots} to ${checks} a day (one every ${formatDuration(Math.ceil(dayMs / checks))} on average), placed at the times of day the dataset has been seen to refresh: ${slots} checks would leave ${Math.max(0, available - slots)} of the ${available} requests available to polling, ${available - slots >= size ? 'enough' : 'less than one full sweep'} of ${issuers(size)}`,
    );
  }
  const pollsPerDay = available - checks;
  // A refresh is only noticed at a gate check, so no more refreshes can be followed than checks are made.
  const refreshesPerDay = size === 0 ? checks : Math.min(checks, Math.floor(pollsPerDay / size));
  const maxStalenessMs = hardBound(input, refreshesPerDay, pollsPerDay, adjusted);
  return {
    gate: true,
    gateIntervalMs: tickMs,
    sweepIntervalMs: tickMs,
    maxStalenessMs,
    refreshesPerDay,
    gateChecksPerDay: checks,
    gateChecksPerMinute,
    pollsPerDay,
    requestsPerDay: refreshesPerDay >= 1 ? checks + refreshesPerDay * size : available,
  };
}

/** The sweep's tick, raised so that the gate takes at most its share of a minute window. */
function gateTick(input: PlanInput, adjusted: string[]): { tickMs: number; perMinute: number } {
  const perMinute = Math.max(1, Math.floor(input.perMinute * input.gateShare));
  const shortest = Math.ceil(input.minuteMs / perMinute);
  if (input.gateIntervalMs >= shortest) {
    return { tickMs: input.gateIntervalMs, perMinute: Math.ceil(input.minuteMs / input.gateIntervalMs) };
  }
  adjusted.push(
    `poll.gateInterval raised from ${formatDuration(input.gateIntervalMs)} to ${formatDuration(shortest)}: the gate may take at most ${plural(perMinute, 'request')} of each minute's ${input.perMinute} (budget.gateShare ${input.gateShare}), so polls are never starved by gate checks`,
  );
  return { tickMs: shortest, perMinute };
}

/**
 * The hard bound on how long any watched issuer goes unpolled (`maxStaleness`). With two or more full
 * sweeps a day, forced sweeps may use all but one (the last is kept for a real refresh). With at most
 * one, the bound is the whole days in which forced polls take at most half of the day's polls, so the
 * rest follow the dataset's refreshes.
 */
function hardBound(
  input: PlanInput,
  refreshesPerDay: number,
  pollsPerDay: number,
  adjusted: string[],
): number {
  const { dayMs, watchlistSize: size } = input;
  if (size === 0) return input.maxStalenessMs;
  const forced = Math.ceil(dayMs / input.maxStalenessMs);
  if (refreshesPerDay >= 2) {
    const affordable = refreshesPerDay - 1;
    if (forced <= affordable) return input.maxStalenessMs;
    const raised = Math.ceil(dayMs / affordable);
    adjusted.push(
      `poll.maxStaleness raised from ${formatDuration(input.maxStalenessMs)} to ${formatDuration(raised)}: ${forced} forced sweeps a day would leave no budget for the dataset's own refreshes (the budget pays for ${refreshesPerDay} sweeps a day)`,
    );
    return raised;
  }
  // Without a full sweep per refresh, issuers are forced DAILY_FORCE_LEAD_DAYS before the bound (polls
  // are spent once a day, after the refresh), so forced polls come every `bound - lead` days: that
  // interval keeps them to their share.
  const lead = refreshesPerDay >= 1 ? 0 : DAILY_FORCE_LEAD_DAYS;
  const days = Math.max(1, Math.ceil(size / (pollsPerDay * FORCED_SHARE) + lead));
  const bound = days * dayMs;
  if (bound <= input.maxStalenessMs) return input.maxStalenessMs;
  adjusted.push(
    `poll.maxStaleness raised from ${formatDuration(input.maxStalenessMs)} to ${formatDuration(bound)}: the budget pays for ${plural(pollsPerDay, 'poll')} a day across ${issuers(size)}, and polls forced by the bound${lead > 0 ? ` (${lead} days before it, as polls are spent once a day after the refresh)` : ''} may take at most half of them`,
  );
  return bound;
}

function planUngated(input: PlanInput, available: number, minSweepMs: number, adjusted: string[]): Core {
  const { dayMs, intervalMs, watchlistSize: size } = input;
  let sweepIntervalMs = intervalMs;
  if (size > 0) {
    // Whole sweeps per day window; day / sweeps is at least W x day / available, and never lets a
    // misaligned window hold one sweep more than the budget pays for.
    const sweepsPerDay = Math.floor(available / size);
    const budgetFloor = Math.ceil(dayMs / sweepsPerDay);
    const floor = Math.max(budgetFloor, minSweepMs);
    if (intervalMs < floor) {
      sweepIntervalMs = floor;
      adjusted.push(
        floor === budgetFloor
          ? `poll.interval raised from ${formatDuration(intervalMs)} to ${formatDuration(floor)}: a sweep costs ${size} requests and ${available} a day are available to polling, so the budget pays for ${plural(sweepsPerDay, 'sweep')} a day`
          : `poll.interval raised from ${formatDuration(intervalMs)} to ${formatDuration(floor)}: ${sweepWindows(input)}`,
      );
    }
  }
  const sweeps = Math.ceil(dayMs / sweepIntervalMs);
  return {
    gate: false,
    gateIntervalMs: input.gateIntervalMs,
    sweepIntervalMs,
    maxStalenessMs: input.maxStalenessMs,
    refreshesPerDay: size === 0 ? 0 : sweeps,
    gateChecksPerDay: 0,
    gateChecksPerMinute: 0,
    pollsPerDay: sweeps * size,
    requestsPerDay: sweeps * size,
  };
}

function describePlan(input: PlanInput, plan: Omit<Plan, 'summary'>, available: number): string[] {
  const size = input.watchlistSize;
  const lines: string[] = [];
  if (plan.gate) {
    lines.push(describeGate(input, plan));
    if (size === 0) {
      lines.push('The watchlist is empty, so no issuer is polled.');
    } else if (plan.refreshesPerDay >= 1) {
      lines.push(
        `The budget can follow ${plural(plan.refreshesPerDay, 'dataset refresh', 'dataset refreshes')} a day across ${issuers(size)} with a full sweep each; each sweep polls the issuers most likely to have changed first.`,
      );
    } else {
      lines.push(
        `A full sweep of ${issuers(size)} costs more than the ${plural(plan.pollsPerDay, 'poll')} a day the budget pays for: after each refresh the issuers most likely to have changed are polled first (each issuer's rate of change is estimated from the dates of its disclosures and the changes shortwatch saw), and a quiet issuer waits its turn.`,
      );
    }
    if (size > 0) {
      lines.push(
        Number.isFinite(plan.maxStalenessMs)
          ? `No watched issuer goes unpolled longer than ${formatDuration(plan.maxStalenessMs)} (the hard bound, poll.maxStaleness), even when the dataset has not moved.`
          : 'Issuers are polled only when the dataset moves.',
      );
    }
  } else if (size === 0) {
    lines.push('The gate is off and the watchlist is empty, so no request is planned.');
  } else {
    lines.push(
      `Without the gate every sweep polls all ${issuers(size)}: one sweep every ${formatDuration(plan.sweepIntervalMs)} (${plural(plan.refreshesPerDay, 'sweep')} a day).`,
    );
  }
  if (size > 0) lines.push(`${capitalise(sweepWindows(input))}.`);
  lines.push(
    `The plan spends at most ${plural(plan.requestsPerDay, 'request')} a day of the ${available} available to polling (perDay ${input.perDay} - reserve ${input.reserve}); the reserve is kept for interactive commands.`,
  );
  return lines;
}

/** Where and how often the gate checks, in words. */
function describeGate(input: PlanInput, plan: Omit<Plan, 'summary'>): string {
  const checks = `The gate checks GET /issuers ${plural(plan.gateChecksPerDay, 'time')} a day`;
  const cap = `at most ${plural(plan.gateChecksPerMinute, 'check')} a minute`;
  if (plan.gateChecksPerDay >= Math.ceil(input.dayMs / plan.gateIntervalMs)) {
    return `${checks}, every ${formatDuration(plan.gateIntervalMs)} (${cap}).`;
  }
  return `${checks} (${cap}, at most one every ${formatDuration(plan.gateIntervalMs)}), placed where the dataset has been seen to refresh (the times of day of its last_updated) with a floor spread over the rest of the day; spread evenly they would be one every ${formatDuration(Math.ceil(input.dayMs / plan.gateChecksPerDay))}.`;
}

/**
 * What the per-minute cap does to a full sweep. It caps requests per minute window, not how fast they
 * go: a sweep within one window's cap is not slowed by it, a larger one is spread over several windows.
 */
function sweepWindows({ watchlistSize: size, perMinute, minuteMs }: PlanInput): string {
  const windows = Math.ceil(size / perMinute);
  const cap = `the per-minute cap (${plural(perMinute, 'request')} a minute)`;
  if (windows <= 1)
    return `a full sweep of ${issuers(size)} fits within ${cap}, so it is not held back by it`;
  return `${cap} spreads a full sweep of ${issuers(size)} over ${windows} minute windows, so full sweeps cannot repeat more often than every ${formatDuration(windows * minuteMs)}`;
}

function capitalise(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

function issuers(count: number): string {
  return plural(count, 'issuer');
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
