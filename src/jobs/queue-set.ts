import { Queue } from 'bullmq';
import { stateKeys } from '../state/keys.js';
import type { RedisClient } from '../state/redis-connection.js';
import type { Queues } from './context.js';
import { QUEUE } from './queues.js';

/** BullMQ's own key prefix: under the deployment's hash tag, so every queue shares its slot. */
export function bullPrefix(root: string): string {
  return stateKeys(root).bull;
}

/** The queues of one deployment on one connection. */
export class QueueSet implements Queues {
  readonly sweep: Queue;
  readonly poll: Queue;
  readonly digest: Queue;

  constructor(connection: RedisClient, root: string) {
    const open = (name: string) => new Queue(name, { connection, prefix: bullPrefix(root) });
    this.sweep = open(QUEUE.sweep);
    this.poll = open(QUEUE.poll);
    this.digest = open(QUEUE.digest);
  }

  /** Every queue. */
  all(): Queue[] {
    return [this.sweep, this.poll, this.digest];
  }

  async close(): Promise<void> {
    await Promise.all(this.all().map((queue) => queue.close()));
  }
}
