import { BEAT_MS } from "./beat.js";
function epochResponse(check, schedules) {
  if (!check.lost) return { lostEpoch: null, resyncSchedulers: false };
  return { lostEpoch: check.previous, resyncSchedulers: schedules };
}
function epochWatch(deps) {
  return {
    name: "epoch-watch",
    periodMs: BEAT_MS,
    reads: "`<t>:epoch`",
    writes: "the `state-lost` notice; the job schedulers (a `start` process); `state-rolled-back` cleared",
    failure: "could not check the Redis state epoch",
    run: async () => {
      const response = epochResponse(await deps.epoch.check(), deps.schedules);
      if (response.lostEpoch !== null) await deps.reportLost(response.lostEpoch);
      if (response.resyncSchedulers) await deps.resyncSchedulers();
      if (response.lostEpoch === null) await deps.settleRolledBack();
    }
  };
}
export {
  epochResponse,
  epochWatch
};
