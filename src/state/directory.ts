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

  /** Replaces the directory with a fresh issuer list (one MULTI). */
  async save(issuers: readonly Issuer[], lastUpdated: string | null, fetchedAt: Date): Promise<void> {
    const multi = this.#redis.multi().del(this.#keys.directory);
    if (issuers.length > 0) {
      multi.hset(this.#keys.directory, Object.fromEntries(issuers.map((i) => [i.svc_issuer_id, i.name])));
    }
    multi.set(this.#keys.directoryMeta, JSON.stringify({ lastUpdated, fetchedAt: fetchedAt.toISOString() }));
    await multi.exec();
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
