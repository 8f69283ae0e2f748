import { stateKeys } from "../../state/keys.js";
import { BEAT_MS } from "./beat.js";
function processRecord(workerOnly, pid, host, now) {
  return { role: workerOnly ? "worker" : "start", pid, host, seenAt: now.toISOString() };
}
function processHeartbeat(deps) {
  return {
    name: "process-heartbeat",
    periodMs: BEAT_MS,
    reads: "the clock",
    writes: "`<t>:workers` (this process)",
    run: async () => {
      const record = processRecord(deps.workerOnly, deps.pid, deps.host, deps.now());
      await deps.redis.hset(stateKeys(deps.prefix).workers, deps.processId, JSON.stringify(record));
    }
  };
}
export {
  processHeartbeat,
  processRecord
};
