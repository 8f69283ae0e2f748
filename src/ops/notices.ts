import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { NoticeMessage } from '../channels/types.js';
import { stateKeys } from '../jobs/keys.js';
import type { Logger } from './logger.js';

const activeNoticeSchema = z.object({
  key: z.string(),
  severity: z.enum(['info', 'warning', 'critical', 'resolved']),
  title: z.string(),
  text: z.string(),
  since: z.string(),
});

/** An operator problem that is still going on. */
export type ActiveNotice = z.infer<typeof activeNoticeSchema>;

/** Hands a notice to the ops channel; `occurrence` makes its delivery id unique per raise/clear. */
export type NoticeDispatch = (notice: NoticeMessage, occurrence: string) => Promise<void>;

/**
 * Operator notices, deduplicated through Redis across every process: one ongoing problem is one
 * message, plus one when it clears.
 */
export class Notices {
  readonly #redis: Redis;
  readonly #key: string;
  readonly #logger: Logger;
  readonly #dispatch: NoticeDispatch;
  readonly #now: () => Date;

  constructor(redis: Redis, prefix: string, logger: Logger, dispatch: NoticeDispatch, now: () => Date) {
    this.#redis = redis;
    this.#key = stateKeys(prefix).notices;
    this.#logger = logger;
    this.#dispatch = dispatch;
    this.#now = now;
  }

  /** Raises a problem; only the first raise of an ongoing problem is logged and sent. */
  async raise(
    key: string,
    severity: 'info' | 'warning' | 'critical',
    title: string,
    text: string,
  ): Promise<boolean> {
    const since = this.#now().toISOString();
    const record: ActiveNotice = { key, severity, title, text, since };
    const created = (await this.#redis.hsetnx(this.#key, key, JSON.stringify(record))) === 1;
    if (!created) return false;
    this.#logger.warn({ notice: key, severity }, `${title}: ${text}`);
    await this.#dispatch({ type: 'notice', key, severity, title, text }, `raise-${since}`);
    return true;
  }

  /** Clears a problem; sends one `resolved` notice if it was active. */
  async clear(key: string, text: string): Promise<boolean> {
    const raw = await this.#redis.hget(this.#key, key);
    if (raw === null) return false;
    const removed = (await this.#redis.hdel(this.#key, key)) === 1;
    if (!removed) return false;
    const active = activeNoticeSchema.safeParse(JSON.parse(raw));
    const title = active.success ? `Resolved: ${active.data.title}` : 'Resolved';
    this.#logger.info({ notice: key }, `${title}: ${text}`);
    await this.#dispatch(
      { type: 'notice', key, severity: 'resolved', title, text },
      `clear-${this.#now().toISOString()}`,
    );
    return true;
  }

  /** Every problem still going on. */
  async list(): Promise<ActiveNotice[]> {
    const all = await this.#redis.hgetall(this.#key);
    return Object.values(all).flatMap((raw) => {
      const parsed = activeNoticeSchema.safeParse(JSON.parse(raw));
      return parsed.success ? [parsed.data] : [];
    });
  }
}
