import type { EpochCheck, StateEpoch } from '../../state/epoch.js';
import type { Duty } from '../duty-scheduler.js';
import { BEAT_MS } from './beat.js';

/** What a check of the state's epoch asks for: report the loss (naming the epoch lost), upsert the schedulers. */
export function epochResponse(
  check: EpochCheck,
  schedules: boolean,
): { lostEpoch: string | null; resyncSchedulers: boolean } {
  if (!check.lost) return { lostEpoch: null, resyncSchedulers: false };
  return { lostEpoch: check.previous, resyncSchedulers: schedules };
}

/**
 * A flush takes the job schedulers with everything else, so no sweep would ever run again to notice:
 * the beat of every process checks the epoch, and a scheduling process (`start`) puts the schedulers back.
 */
export function epochWatch(deps: {
  epoch: Pick<StateEpoch, 'check'>;
  schedules: boolean;
  reportLost: (previousEpoch: string) => Promise<void>;
  resyncSchedulers: () => Promise<void>;
  /** Clears the `state-rolled-back` notice once it is a beat old (issue 30). */
  settleRolledBack: () => Promise<void>;
}): Duty {
  return {
    name: 'epoch-watch',
    periodMs: BEAT_MS,
    reads: '`<t>:epoch`',
    writes: 'the `state-lost` notice; the job schedulers (a `start` process); `state-rolled-back` cleared',
    failure: 'could not check the Redis state epoch',
    run: async () => {
      const response = epochResponse(await deps.epoch.check(), deps.schedules);
      if (response.lostEpoch !== null) await deps.reportLost(response.lostEpoch);
      if (response.resyncSchedulers) await deps.resyncSchedulers();
      if (response.lostEpoch === null) await deps.settleRolledBack();
    },
  };
}
