import { setTimeout as sleep } from 'node:timers/promises';
import type { Notices } from '../state/notices.js';

/** The notice a process raises as it exits because its workers or its delivery path stay stuck. */
export const PROCESS_STUCK_NOTICE = 'process-stuck';

/** How long telling the operator may hold up the exit: Redis may be part of the problem. */
const TELL_BOUND_MS = 2_000;

/**
 * Workers or deliverers are stuck (`what`: `its … is`): raises the critical `process-stuck` notice
 * (bounded), then resolves, so that the process exits non-zero and its supervisor restarts it.
 */
export async function tellProcessStuck(
  notices: Pick<Notices, 'raise'>,
  processId: string,
  what: string,
  reason: string,
): Promise<void> {
  const told = notices.raise(
    PROCESS_STUCK_NOTICE,
    'critical',
    `A shortwatch process exits: ${what} stuck`,
    `${processId}: ${reason}. It exits 1 for its supervisor to restart it (docs/operations.md: the restart policy each supervisor needs); cleared when a process runs with its workers and deliverers alive.`,
  );
  await Promise.race([told.catch(() => undefined), sleep(TELL_BOUND_MS)]);
}

/** Clears `process-stuck` once this process runs with its workers and deliverers alive. */
export function clearProcessStuck(notices: Pick<Notices, 'clear'>, processId: string): void {
  void notices
    .clear(PROCESS_STUCK_NOTICE, `Process ${processId} runs with its workers and deliverers alive.`)
    .catch(() => undefined);
}
