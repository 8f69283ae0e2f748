import type { Random } from '../../src/sandbox/prng.js';
import type { KillMoment } from './plan.js';
import type { Story } from './story.js';
import type { ChaosWorld } from './world.js';

/**
 * A moment at which a message may legitimately be sent twice: the receiver accepted it but the
 * deliverer's finish was lost (a process killed, a Redis connection cut or Redis paused), so the next
 * lease holder sends the in-flight message again. A Slack post resent whole near one is reported as an
 * at-least-once case, not as a bug; the other channels carry ids and need no excuse.
 */
export interface Hazard {
  from: number;
  to: number;
  what: string;
}

/** What a fault acts on and where it reports. */
export interface FaultContext {
  world: ChaosWorld;
  story: Story;
  hazards: Hazard[];
  /** Redis outages with every process alive: no repeat near one is excused. */
  outages: Hazard[];
  /** Problems the faults themselves detected (e.g. a 401 that did not stop polling). */
  problems: string[];
  /** Issuers whose data changed in this step. */
  changedIssuers: readonly string[];
  /** The moments process kills aim at. */
  killMoments: readonly KillMoment[];
  /**
   * The tail of each chain of faults that must not overlap, by fault name: two 401 episodes at once
   * would both see the first 401, both resume once, and leave the second 401 to revoke access for good.
   */
  serial: Map<string, Promise<void>>;
  /**
   * Issuers an outage fault already took down in this step. A second outage of the same issuer doubles
   * its failed polls, and the daemon's backoff for a failing issuer (a sweep interval, doubling) then
   * outlasts the step's wait: seen as "never saw the new data within 120000 ms" (seed 1769001267).
   */
  issuersDown: Set<string>;
}

/** One fault's action. */
export type FaultRun = (ctx: FaultContext, rng: Random) => Promise<void>;
