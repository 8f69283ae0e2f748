import { formatDuration } from "../config/duration.js";
import { PlanError } from "./plan-error.js";
const DAILY_FORCE_LEAD_DAYS = 1.5;
import { isPlanError, PlanError as PlanError2 } from "./plan-error.js";
const MIN_CHECK_SHARE = 0.05;
const FORCED_SHARE = 0.5;
function planPolling(input) {
  const available = input.perDay - input.reserve;
  const size = input.watchlistSize;
  const minSweepMs = Math.ceil(size / input.perMinute) * input.minuteMs;
  const adjusted = [];
  let core;
  if (input.gate && available >= 2) {
    core = planGated(input, available, adjusted);
  } else {
    if (size > available) throw new PlanError(size, input.perDay, input.reserve);
    if (input.gate) {
      adjusted.push(
        `poll.gate turned off: one gate check and one poll need 2 requests a day but only ${available} is available to polling`
      );
    }
    core = planUngated(input, available, minSweepMs, adjusted);
  }
  const plan = { ...core, minSweepMs, adjusted };
  return { ...plan, summary: describePlan(input, plan, available) };
}
function planGated(input, available, adjusted) {
  const { dayMs, watchlistSize: size } = input;
  const { tickMs, perMinute: gateChecksPerMinute } = gateTick(input, adjusted);
  const slots = Math.ceil(dayMs / tickMs);
  let checks = slots;
  if (available - slots < size) {
    const floor = Math.min(slots, Math.max(1, Math.ceil(available * MIN_CHECK_SHARE)));
    checks = Math.min(slots, Math.max(floor, available - size));
    adjusted.push(
      `gate checks cut from ${slots} to ${checks} a day (one every ${formatDuration(Math.ceil(dayMs / checks))} on average), placed at the times of day the dataset has been seen to refresh: ${slots} checks would leave ${Math.max(0, available - slots)} of the ${available} requests available to polling, ${available - slots >= size ? "enough" : "less than one full sweep"} of ${issuers(size)}`
    );
  }
  const pollsPerDay = available - checks;
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
    requestsPerDay: refreshesPerDay >= 1 ? checks + refreshesPerDay * size : available
  };
}
function gateTick(input, adjusted) {
  const perMinute = Math.max(1, Math.floor(input.perMinute * input.gateShare));
  const shortest = Math.ceil(input.minuteMs / perMinute);
  if (input.gateIntervalMs >= shortest) {
    return { tickMs: input.gateIntervalMs, perMinute: Math.ceil(input.minuteMs / input.gateIntervalMs) };
  }
  adjusted.push(
    `poll.gateInterval raised from ${formatDuration(input.gateIntervalMs)} to ${formatDuration(shortest)}: the gate may take at most ${plural(perMinute, "request")} of each minute's ${input.perMinute} (budget.gateShare ${input.gateShare}), so polls are never starved by gate checks`
  );
  return { tickMs: shortest, perMinute };
}
function hardBound(input, refreshesPerDay, pollsPerDay, adjusted) {
  const { dayMs, watchlistSize: size } = input;
  if (size === 0) return input.maxStalenessMs;
  const forced = Math.ceil(dayMs / input.maxStalenessMs);
  if (refreshesPerDay >= 2) {
    const affordable = refreshesPerDay - 1;
    if (forced <= affordable) return input.maxStalenessMs;
    const raised = Math.ceil(dayMs / affordable);
    adjusted.push(
      `poll.maxStaleness raised from ${formatDuration(input.maxStalenessMs)} to ${formatDuration(raised)}: ${forced} forced sweeps a day would leave no budget for the dataset's own refreshes (the budget pays for ${refreshesPerDay} sweeps a day)`
    );
    return raised;
  }
  const lead = refreshesPerDay >= 1 ? 0 : DAILY_FORCE_LEAD_DAYS;
  const days = Math.max(1, Math.ceil(size / (pollsPerDay * FORCED_SHARE) + lead));
  const bound = days * dayMs;
  if (bound <= input.maxStalenessMs) return input.maxStalenessMs;
  adjusted.push(
    `poll.maxStaleness raised from ${formatDuration(input.maxStalenessMs)} to ${formatDuration(bound)}: the budget pays for ${plural(pollsPerDay, "poll")} a day across ${issuers(size)}, and polls forced by the bound${lead > 0 ? ` (${lead} days before it, as polls are spent once a day after the refresh)` : ""} may take at most half of them`
  );
  return bound;
}
function planUngated(input, available, minSweepMs, adjusted) {
  const { dayMs, intervalMs, watchlistSize: size } = input;
  let sweepIntervalMs = intervalMs;
  if (size > 0) {
    const sweepsPerDay = Math.floor(available / size);
    const budgetFloor = Math.ceil(dayMs / sweepsPerDay);
    const floor = Math.max(budgetFloor, minSweepMs);
    if (intervalMs < floor) {
      sweepIntervalMs = floor;
      adjusted.push(
        floor === budgetFloor ? `poll.interval raised from ${formatDuration(intervalMs)} to ${formatDuration(floor)}: a sweep costs ${size} requests and ${available} a day are available to polling, so the budget pays for ${plural(sweepsPerDay, "sweep")} a day` : `poll.interval raised from ${formatDuration(intervalMs)} to ${formatDuration(floor)}: ${sweepWindows(input)}`
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
    requestsPerDay: sweeps * size
  };
}
function describePlan(input, plan, available) {
  const size = input.watchlistSize;
  const lines = [];
  if (plan.gate) {
    lines.push(describeGate(input, plan));
    if (size === 0) {
      lines.push("The watchlist is empty, so no issuer is polled.");
    } else if (plan.refreshesPerDay >= 1) {
      lines.push(
        `The budget can follow ${plural(plan.refreshesPerDay, "dataset refresh", "dataset refreshes")} a day across ${issuers(size)} with a full sweep each; each sweep polls the issuers most likely to have changed first.`
      );
    } else {
      lines.push(
        `A full sweep of ${issuers(size)} costs more than the ${plural(plan.pollsPerDay, "poll")} a day the budget pays for: after each refresh the issuers most likely to have changed are polled first (each issuer's rate of change is estimated from the dates of its disclosures and the changes shortwatch saw), and a quiet issuer waits its turn.`
      );
    }
    if (size > 0) {
      lines.push(
        Number.isFinite(plan.maxStalenessMs) ? `No watched issuer goes unpolled longer than ${formatDuration(plan.maxStalenessMs)} (the hard bound, poll.maxStaleness), even when the dataset has not moved.` : "Issuers are polled only when the dataset moves."
      );
    }
  } else if (size === 0) {
    lines.push("The gate is off and the watchlist is empty, so no request is planned.");
  } else {
    lines.push(
      `Without the gate every sweep polls all ${issuers(size)}: one sweep every ${formatDuration(plan.sweepIntervalMs)} (${plural(plan.refreshesPerDay, "sweep")} a day).`
    );
  }
  if (size > 0) lines.push(`${capitalise(sweepWindows(input))}.`);
  lines.push(
    `The plan spends at most ${plural(plan.requestsPerDay, "request")} a day of the ${available} available to polling (perDay ${input.perDay} - reserve ${input.reserve}); the reserve is kept for interactive commands.`
  );
  return lines;
}
function describeGate(input, plan) {
  const checks = `The gate checks GET /issuers ${plural(plan.gateChecksPerDay, "time")} a day`;
  const cap = `at most ${plural(plan.gateChecksPerMinute, "check")} a minute`;
  if (plan.gateChecksPerDay >= Math.ceil(input.dayMs / plan.gateIntervalMs)) {
    return `${checks}, every ${formatDuration(plan.gateIntervalMs)} (${cap}).`;
  }
  return `${checks} (${cap}, at most one every ${formatDuration(plan.gateIntervalMs)}), placed where the dataset has been seen to refresh (the times of day of its last_updated) with a floor spread over the rest of the day; spread evenly they would be one every ${formatDuration(Math.ceil(input.dayMs / plan.gateChecksPerDay))}.`;
}
function sweepWindows({ watchlistSize: size, perMinute, minuteMs }) {
  const windows = Math.ceil(size / perMinute);
  const cap = `the per-minute cap (${plural(perMinute, "request")} a minute)`;
  if (windows <= 1)
    return `a full sweep of ${issuers(size)} fits within ${cap}, so it is not held back by it`;
  return `${cap} spreads a full sweep of ${issuers(size)} over ${windows} minute windows, so full sweeps cannot repeat more often than every ${formatDuration(windows * minuteMs)}`;
}
function capitalise(text) {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
function issuers(count) {
  return plural(count, "issuer");
}
function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}
export {
  DAILY_FORCE_LEAD_DAYS,
  PlanError2 as PlanError,
  isPlanError,
  planPolling
};
