import { stateKeys } from '../../state/keys.js';
import type { RedisClient } from '../../state/redis-connection.js';
import type { Duty } from '../duty-scheduler.js';
import { BEAT_MS } from './beat.js';

/** How a daemon process is told in the workers hash (`status` lists it while `seenAt` is fresh). */
interface ProcessRecord {
  role: 'start' | 'worker';
  pid: number;
  host: string;
  seenAt: string;
}

/** The record this process writes at each beat. */
export function processRecord(workerOnly: boolean, pid: number, host: string, now: Date): ProcessRecord {
  return { role: workerOnly ? 'worker' : 'start', pid, host, seenAt: now.toISOString() };
}

/**
 * Tells `status` this process is alive. A failed write is dropped: Redis is out, which RedisHealth logs
 * already, and the next beat writes again.
 */
export function processHeartbeat(deps: {
  redis: RedisClient;
  prefix: string;
  processId: string;
  workerOnly: boolean;
  pid: number;
  host: string;
  now: () => Date;
}): Duty {
  return {
    name: 'process-heartbeat',
    periodMs: BEAT_MS,
    reads: 'the clock',
    writes: '`<t>:workers` (this process)',
    run: async () => {
      const record = processRecord(deps.workerOnly, deps.pid, deps.host, deps.now());
      await deps.redis.hset(stateKeys(deps.prefix).workers, deps.processId, JSON.stringify(record));
    },
  };
}
