import { sweepEvery } from "../../jobs/schedulers.js";
import { BEAT_MS } from "./beat.js";
function sweepMoved(schedules, intervalBefore, intervalAfter) {
  return schedules && intervalAfter !== intervalBefore;
}
function directoryFollow(deps) {
  return {
    name: "directory-follow",
    periodMs: BEAT_MS,
    reads: "`<t>:directory` (when a new list was saved)",
    writes: "this process's watched set and plan; the sweep scheduler (a `start` process); `watchlist-plan`",
    failure: "could not follow the issuer directory (watchlist: all)",
    run: deps.follow
  };
}
async function followDirectory(parts, role) {
  const before = parts.live.current;
  const next = await parts.follower.follow(before, { report: role !== "command" });
  if (next === void 0) return;
  parts.live.update(next);
  if (sweepMoved(role === "start", sweepEvery(before.plan), sweepEvery(next.plan)))
    await parts.syncSchedulers();
}
export {
  directoryFollow,
  followDirectory,
  sweepMoved
};
