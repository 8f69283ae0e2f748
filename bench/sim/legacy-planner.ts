import { PlanError } from '../../src/budget/plan-error.js';
import { formatDuration } from '../../src/config/duration.js';
import type { Config } from '../../src/config/schema.js';

// The planner as it was before issue 16 (git HEAD of src/budget/planner.ts, frozen), so the detection
// benchmark can measure the old policy beside the new one in the same run, on the same register.

/** The old plan for a config (src/plan-for.ts before issue 16); throws PlanError when it refused. */
export function legacyPlanFor(config: Config): Plan {
  return planPolling({
    watchlistSize: config.watchlist.length,
    perMinute: config.budget.perMinute,
    perDay: config.budget.perDay,
    reserve: config.budget.reserve,
    gate: config.poll.gate,
    gateIntervalMs: config.poll.gateInterval,
    intervalMs: config.poll.interval,
    maxStalenessMs: config.poll.maxStaleness,
    dayMs: config.budget.dayWindow,
    minuteMs: config.budget.minuteWindow,
  });
}

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
}

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
  if (size > available) throw new PlanError(size, input.perDay, input.reserve);
  const minSweepMs = Math.ceil(size / input.perMinute) * input.minuteMs;
  const adjusted: string[] = [];
  let core: Core;
  if (input.gate && available - size >= 1) {
    core = planGated(input, available, adjusted);
  } else {
    if (input.gate) {
      adjusted.push(
        `poll.gate turned off: one gate check and one sweep of ${issuers(size)} need ${size + 1} requests a day but only ${available} are available to polling`,
      );
    }
    core = planUngated(input, available, minSweepMs, adjusted);
  }
  const plan = { ...core, minSweepMs, adjusted };
  return { ...plan, summary: describePlan(input, plan, available) };
}

function planGated(input: PlanInput, available: number, adjusted: string[]): Core {
  const { dayMs, watchlistSize: size } = input;
  let gateIntervalMs = input.gateIntervalMs;
  let checks = Math.ceil(dayMs / gateIntervalMs);
  if (available - checks < size) {
    // The smallest interval with at most (available - size) checks a day, so one full sweep still fits.
    gateIntervalMs = Math.ceil(dayMs / (available - size));
    adjusted.push(
      `poll.gateInterval raised from ${formatDuration(input.gateIntervalMs)} to ${formatDuration(gateIntervalMs)}: ${checks} gate checks a day would leave ${Math.max(0, available - checks)} of the ${available} requests available to polling, less than one full sweep of ${issuers(size)}`,
    );
    checks = Math.ceil(dayMs / gateIntervalMs);
  }
  // A refresh is only noticed at a gate check, so no more refreshes can be followed than checks are made.
  const refreshesPerDay = size === 0 ? checks : Math.min(checks, Math.floor((available - checks) / size));
  // Forced (stale) sweeps may use every refresh the budget pays for but one: the last is kept for a real
  // dataset change, or a stale sweep late in the day would leave the day's refresh waiting for tomorrow.
  let maxStalenessMs = input.maxStalenessMs;
  const forced = Math.ceil(dayMs / maxStalenessMs);
  const affordable = refreshesPerDay - 1;
  if (size > 0 && forced > affordable) {
    maxStalenessMs = affordable > 0 ? Math.ceil(dayMs / affordable) : Number.POSITIVE_INFINITY;
    adjusted.push(
      affordable > 0
        ? `poll.maxStaleness raised from ${formatDuration(input.maxStalenessMs)} to ${formatDuration(maxStalenessMs)}: ${forced} forced sweeps a day would leave no budget for the dataset's own refreshes (the budget pays for ${refreshesPerDay} sweeps a day)`
        : `poll.maxStaleness (${formatDuration(input.maxStalenessMs)}) turned off: the budget pays for ${plural(refreshesPerDay, 'full sweep')} a day, kept for the dataset's own refreshes`,
    );
  }
  return {
    gate: true,
    gateIntervalMs,
    sweepIntervalMs: gateIntervalMs,
    maxStalenessMs,
    refreshesPerDay,
    gateChecksPerDay: checks,
    requestsPerDay: checks + refreshesPerDay * size,
  };
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
    requestsPerDay: sweeps * size,
  };
}

function describePlan(input: PlanInput, plan: Omit<Plan, 'summary'>, available: number): string[] {
  const size = input.watchlistSize;
  const lines: string[] = [];
  if (plan.gate) {
    const gate = `The gate checks GET /issuers every ${formatDuration(plan.gateIntervalMs)} (${plural(plan.gateChecksPerDay, 'request')} a day)`;
    if (size === 0) {
      lines.push(`${gate}; the watchlist is empty, so no issuer is polled.`);
    } else {
      lines.push(
        `${gate} and the budget can follow ${plural(plan.refreshesPerDay, 'dataset refresh', 'dataset refreshes')} a day across ${issuers(size)}.`,
      );
      lines.push(
        Number.isFinite(plan.maxStalenessMs)
          ? `Every issuer is polled at least every ${formatDuration(plan.maxStalenessMs)}, even when the dataset has not moved.`
          : 'Issuers are polled only when the dataset moves: the budget has no room for forced sweeps.',
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
