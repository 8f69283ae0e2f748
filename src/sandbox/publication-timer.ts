import type { Scenario } from './scenario.js';

/** A running publication schedule; `stop()` ends it (the data then stays as it is). */
export interface PublicationTimer {
  stop(): void;
}

/**
 * Publishes a scenario on its schedule, by `now`. The register starts as of its last scheduled
 * publication (`last_updated` is that instant), as a register watched from now was last refreshed
 * then. A timer that fires early waits again; one that fires late publishes at once, at the instant
 * it ran, so `last_updated` is never earlier than the data it stands for.
 */
export function startPublications(scenario: Scenario, now: () => number): PublicationTimer | undefined {
  const startMs = now();
  const last = scenario.lastPublication(startMs);
  if (last === undefined) return undefined;
  scenario.setLastUpdated(new Date(last).toISOString());
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const arm = (afterMs: number): void => {
    const due = scenario.nextPublication(afterMs);
    if (stopped || due === undefined) return;
    timer = setTimeout(() => {
      const at = now();
      if (at < due) return arm(afterMs);
      scenario.publish(at);
      arm(Math.max(at, due));
    }, due - now());
    timer.unref();
  };
  arm(startMs);
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
