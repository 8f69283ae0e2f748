import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Queues } from './context.js';
import { deliverQueueName, QUEUE } from './queues.js';

/** BullMQ's own key prefix inside ours, so every key of a deployment starts with `<prefix>:`. */
export function bullPrefix(prefix: string): string {
  return `${prefix}:q`;
}

/** The queues of one deployment on one connection; delivery queues are opened on first use. */
export class QueueSet implements Queues {
  readonly sweep: Queue;
  readonly poll: Queue;
  readonly digest: Queue;
  readonly #deliver = new Map<string, Queue>();
  readonly #connection: Redis;
  readonly #prefix: string;

  constructor(connection: Redis, prefix: string) {
    this.#connection = connection;
    this.#prefix = bullPrefix(prefix);
    this.sweep = this.#open(QUEUE.sweep);
    this.poll = this.#open(QUEUE.poll);
    this.digest = this.#open(QUEUE.digest);
  }

  deliver(channel: string): Queue {
    let queue = this.#deliver.get(channel);
    if (!queue) {
      queue = this.#open(deliverQueueName(channel));
      this.#deliver.set(channel, queue);
    }
    return queue;
  }

  /** Every queue opened so far. */
  all(): Queue[] {
    return [this.sweep, this.poll, this.digest, ...this.#deliver.values()];
  }

  async close(): Promise<void> {
    await Promise.all(this.all().map((queue) => queue.close()));
  }

  #open(name: string): Queue {
    return new Queue(name, { connection: this.#connection, prefix: this.#prefix });
  }
}
