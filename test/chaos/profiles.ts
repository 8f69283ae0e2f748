import { type ChaosProfile, FAULT_NAMES, type FaultName, KILL_MOMENTS } from './plan.js';

/** Global Redis pauses stop every user of the Redis, other test files included: long run only. */
const LOCAL_FAULTS: FaultName[] = FAULT_NAMES.filter((name) => name !== 'redis-pause');

/** The run inside `npm test`: 50 issuers, a handful of steps, every local fault at least once. */
export const BOUNDED: ChaosProfile = {
  issuers: 50,
  steps: 6,
  workers: 2,
  faultsPerStep: [0, 1],
  mustInclude: LOCAL_FAULTS,
  pool: LOCAL_FAULTS,
  killMoments: KILL_MOMENTS,
};

/** `npm run chaos`: more issuers, many steps, every fault several times, Redis pauses included. */
export const LONG: ChaosProfile = {
  issuers: 60,
  steps: 30,
  workers: 3,
  faultsPerStep: [1, 4],
  mustInclude: [...FAULT_NAMES, 'redis-pause', 'kill-daemon', 'kill-worker', 'upstream-401'],
  pool: LOCAL_FAULTS,
  killMoments: KILL_MOMENTS,
};

/** A seed from `CHAOS_SEED`, else a random one (printed by the run, so it can be replayed). */
export function seedFrom(value: string | undefined): number {
  const parsed = value === undefined || value === '' ? Number.NaN : Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : 1 + Math.floor(Math.random() * 2_000_000_000);
}
