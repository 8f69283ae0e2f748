import type { RedisClient } from '../state/redis-connection.js';
import { isConnectionError, redisErrorFields } from '../state/redis-error-fields.js';
import type { Logger } from '../telemetry/logger.js';

/** What the watch needs of a BullMQ Queue, Worker or QueueEvents. */
export interface BullEmitter {
  on(event: 'error', listener: (error: Error) => void): unknown;
  getBackend(): { on(event: 'ready', listener: () => void): unknown };
}

/** One outage: from the first connection error until every connection that failed is ready again. */
interface Episode {
  since: number;
  errors: number;
}

/**
 * Logs Redis trouble once per outage: a `warn` at the first connection error of any connection (ioredis
 * retries every second or two, and each retry of each connection would otherwise log), an `info` when
 * every connection that failed is ready again. Lines are structured (type, code, message): no stack, no
 * credentials. BullMQ objects must have an `error` listener, or BullMQ prints raw stacks with
 * console.error; their errors that are not about the connection are logged at `error`, each time.
 */
export class RedisHealth {
  readonly #logger: Logger;
  readonly #now: () => number;
  /** Connections whose last event was an error, by the name they are watched under. */
  readonly #down = new Set<string>();
  #episode: Episode | undefined;
  readonly #recoveryListeners: Array<() => void> = [];

  constructor(logger: Logger, now: () => number = Date.now) {
    this.#logger = logger;
    this.#now = now;
  }

  /** Calls `listener` each time an outage ends (every connection that failed is ready again). */
  onRecovered(listener: () => void): void {
    this.#recoveryListeners.push(listener);
  }

  /** Watches an ioredis connection: every error it emits is about its connection. */
  watchClient(name: string, client: RedisClient): void {
    client.on('error', (error: Error) => this.#failed(name, error));
    client.on('ready', () => this.#ready(name));
    // A connection closed on purpose (stop) is no longer waited for.
    client.on('end', () => this.#down.delete(name));
  }

  /** Watches a BullMQ Queue, Worker or QueueEvents (and the connections BullMQ opened for it). */
  watchBull(name: string, emitter: BullEmitter): void {
    emitter.on('error', (error: Error) => {
      if (isConnectionError(error)) this.#failed(name, error);
      else this.#logger.error({ source: name, error: redisErrorFields(error) }, 'BullMQ error');
    });
    emitter.getBackend().on('ready', () => this.#ready(name));
  }

  #failed(name: string, error: unknown): void {
    this.#down.add(name);
    if (this.#episode) {
      this.#episode.errors += 1;
      return;
    }
    this.#episode = { since: this.#now(), errors: 1 };
    this.#logger.warn(
      { connection: name, error: redisErrorFields(error) },
      'redis connection lost; retrying (logged once until it is back)',
    );
  }

  #ready(name: string): void {
    this.#down.delete(name);
    const episode = this.#episode;
    if (!episode || this.#down.size > 0) return;
    this.#episode = undefined;
    this.#logger.info(
      { downForMs: this.#now() - episode.since, errors: episode.errors },
      'redis connection recovered',
    );
    for (const listener of this.#recoveryListeners) listener();
  }
}
