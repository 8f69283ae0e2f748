import { setTimeout as sleep } from "node:timers/promises";
const PROCESS_STUCK_NOTICE = "process-stuck";
const TELL_BOUND_MS = 2e3;
async function tellProcessStuck(notices, processId, what, reason) {
  const told = notices.raise(
    PROCESS_STUCK_NOTICE,
    "critical",
    `A shortwatch process exits: ${what} stuck`,
    `${processId}: ${reason}. It exits 1 for its supervisor to restart it (docs/operations.md: the restart policy each supervisor needs); cleared when a process runs with its workers and deliverers alive.`
  );
  await Promise.race([told.catch(() => void 0), sleep(TELL_BOUND_MS)]);
}
function clearProcessStuck(notices, processId) {
  void notices.clear(PROCESS_STUCK_NOTICE, `Process ${processId} runs with its workers and deliverers alive.`).catch(() => void 0);
}
export {
  PROCESS_STUCK_NOTICE,
  clearProcessStuck,
  tellProcessStuck
};
