import { Random } from '../../src/sandbox/prng.js';

/** Every fault the suite knows, by the layer it hits. */
export const FAULT_NAMES = [
  'kill-worker',
  'kill-daemon',
  'redis-client-kill',
  'redis-pause',
  'redis-outage',
  'upstream-5xx',
  'upstream-timeout',
  'upstream-malformed',
  'upstream-schema',
  'upstream-issuer-outage',
  'upstream-429-minute',
  'upstream-429-day',
  'upstream-401',
  'slack-429',
  'slack-500',
  'slack-slow',
  'smtp-451',
  'smtp-drop',
  'hook-500',
] as const;

/** What a process kill waits for: a job of that kind, or a message being sent, in flight (`any`: no waiting). */
export const KILL_MOMENTS = ['poll', 'deliver', 'digest', 'sweep', 'any'] as const;

/** One moment a kill aims at. */
export type KillMoment = (typeof KILL_MOMENTS)[number];

/** One fault's name. */
export type FaultName = (typeof FAULT_NAMES)[number];

/** One fault planned for a step: when (ms after the step's data changed) and its own seed. */
export interface PlannedFault {
  name: FaultName;
  atMs: number;
  seed: number;
}

/** How a run is shaped: size, length and which faults it may use. */
export interface ChaosProfile {
  issuers: number;
  steps: number;
  workers: number;
  /** Random faults per step, [min, max], on top of the ones every run must include. */
  faultsPerStep: [number, number];
  /** Faults that appear at least once, each in a random step. */
  mustInclude: FaultName[];
  /** Faults drawn at random; global Redis pauses stay out of the bounded run (other tests share Redis). */
  pool: FaultName[];
  /** The moments process kills aim at. */
  killMoments: readonly KillMoment[];
}

/** Faults that may hit the run at any moment: processes and connections. */
const ANY_MOMENT: ReadonlySet<FaultName> = new Set([
  'kill-worker',
  'kill-daemon',
  'redis-client-kill',
  'smtp-drop',
]);

/** When in the step window a fault fires: upstream faults must meet the poll burst that follows the change. */
function offsetFor(name: FaultName, rng: Random): number {
  if (name.startsWith('upstream-')) return rng.int(0, 300);
  if (ANY_MOMENT.has(name)) return rng.int(50, 2_500);
  return rng.int(0, 1_500);
}

/** The fault plan of a run, step by step; the same seed always gives the same plan. */
export function planFaults(seed: number, profile: ChaosProfile): PlannedFault[][] {
  const rng = new Random(seed ^ 0x5eed);
  const steps: FaultName[][] = Array.from({ length: profile.steps }, () => []);
  for (const name of profile.mustInclude) steps[rng.int(0, profile.steps - 1)]?.push(name);
  for (const names of steps) {
    const extra = rng.int(profile.faultsPerStep[0], profile.faultsPerStep[1]);
    for (let i = 0; i < extra; i++) {
      const name = rng.pick(profile.pool);
      if (name) names.push(name);
    }
  }
  return steps.map((names) =>
    names
      .map((name) => ({ name, atMs: offsetFor(name, rng), seed: rng.int(1, 2 ** 31 - 1) }))
      .sort((a, b) => a.atMs - b.atMs),
  );
}

/** The plan in words, one line per step. */
export function describePlan(
  plan: readonly PlannedFault[][],
  scenarios: readonly (StepScenario | undefined)[] = [],
): string[] {
  return plan.map((faults, index) => {
    const scenario = scenarios[index] ? ` (scenario: ${scenarios[index]})` : '';
    return `step ${index + 1}${scenario}: ${faults.map((f) => `${f.name}@${f.atMs}ms`).join(', ') || 'no faults'}`;
  });
}

/**
 * Issue 20's scenarios that shape a whole step rather than hit a moment of it: `row-missing` (one
 * answer leaves a holder out; the two steps after bring it back, then drop it for real) and
 * `unversioned` (the list says `last_updated: null` until every issuer was polled blind).
 */
export type StepScenario = 'row-missing' | 'unversioned';

/** The scenario of each step, by index; each once per run when the run is long enough, never together. */
export function planScenarios(seed: number, steps: number): Array<StepScenario | undefined> {
  const rng = new Random(seed ^ 0x5ce7);
  const plan: Array<StepScenario | undefined> = Array.from({ length: steps }, () => undefined);
  if (steps >= 3) plan[rng.int(0, steps - 3)] = 'row-missing';
  const free = plan.flatMap((scenario, index) => (scenario === undefined ? [index] : []));
  const unversioned = rng.pick(free);
  if (unversioned !== undefined) plan[unversioned] = 'unversioned';
  return plan;
}
