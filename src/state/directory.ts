import { z } from 'zod';
import type { Issuer } from '../upstream/schemas.js';
import { stateKeys } from './keys.js';
import type { RedisClient } from './redis-connection.js';

const metaSchema = z.object({ lastUpdated: z.string().nullable(), fetchedAt: z.string() });

/** What the last `GET /issuers` said. */
export interface DirectoryView {
  issuers: Issuer[];
  lastUpdated: string | null;
  fetchedAt: string;
}

/** The issuer directory, refreshed by every sweep and shared by all processes through Redis. */
export class IssuerDirectory {
  readonly #redis: RedisClient;
  readonly #keys: ReturnType<typeof stateKeys>;

  constructor(redis: RedisClient, prefix: string) {
    this.#redis = redis;
    this.#keys = stateKeys(prefix);
  }

  /**
   * Replaces the directory with a fresh issuer list (one MULTI), returning the ids it listed before: null
   * when none was saved yet, so that a first save is not read as every issuer joining.
   */
  async save(
    issuers: readonly Issuer[],
    lastUpdated: string | null,
    fetchedAt: Date,
  ): Promise<string[] | null> {
    const multi = this.#redis
      .multi()
      .exists(this.#keys.directoryMeta)
      .hkeys(this.#keys.directory)
      .del(this.#keys.directory);
    if (issuers.length > 0) {
      multi.hset(this.#keys.directory, Object.fromEntries(issuers.map((i) => [i.svc_issuer_id, i.name])));
    }
    multi.set(this.#keys.directoryMeta, JSON.stringify({ lastUpdated, fetchedAt: fetchedAt.toISOString() }));
    const replies = (await multi.exec()) ?? [];
    if (replies[0]?.[1] !== 1) return null;
    return z.array(z.string()).parse(replies[1]?.[1]);
  }

  /** When the saved list was fetched (its identity: every save writes a new one), or null before the first. */
  async fetchedAt(): Promise<string | null> {
    const meta = await this.#redis.get(this.#keys.directoryMeta);
    return meta === null ? null : metaSchema.parse(JSON.parse(meta)).fetchedAt;
  }

  /** How many issuers the saved directory lists, or null before the first sweep (two small reads). */
  async count(): Promise<number | null> {
    const [size, saved] = await Promise.all([
      this.#redis.hlen(this.#keys.directory),
      this.#redis.exists(this.#keys.directoryMeta),
    ]);
    return saved === 1 ? size : null;
  }

  /** The directory as last saved, or null before the first sweep. */
  async load(): Promise<DirectoryView | null> {
    const [entries, meta] = await Promise.all([
      this.#redis.hgetall(this.#keys.directory),
      this.#redis.get(this.#keys.directoryMeta),
    ]);
    if (meta === null) return null;
    const parsed = metaSchema.parse(JSON.parse(meta));
    const issuers = Object.entries(entries)
      .map(([svc_issuer_id, name]) => ({ svc_issuer_id, name }))
      .sort((a, b) => a.svc_issuer_id.localeCompare(b.svc_issuer_id));
    return { issuers, ...parsed };
  }
}
