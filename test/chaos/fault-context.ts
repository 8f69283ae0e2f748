import type { Random } from '../../src/sandbox/prng.js';
import type { KillMoment } from './plan.js';
import type { Story } from './story.js';
import type { ChaosWorld } from './world.js';

/**
 * A moment at which a message may legitimately be sent twice: the send was accepted but the job's
 * completion was lost (a process killed, a Redis connection cut, an SMTP connection dropped after the
 * server took the message). Duplicates near one are reported as at-least-once cases, not as bugs.
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
  /** Problems the faults themselves detected (e.g. a 401 that did not stop polling). */
  problems: string[];
  /** Issuers whose data changed in this step. */
  changedIssuers: readonly string[];
  /** The moments process kills aim at. */
  killMoments: readonly KillMoment[];
}

/** One fault's action. */
export type FaultRun = (ctx: FaultContext, rng: Random) => Promise<void>;
