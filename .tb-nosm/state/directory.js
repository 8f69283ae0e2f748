import { z } from "zod";
import { stateKeys } from "./keys.js";
const metaSchema = z.object({ lastUpdated: z.string().nullable(), fetchedAt: z.string() });
class IssuerDirectory {
  #redis;
  #keys;
  constructor(redis, prefix) {
    this.#redis = redis;
    this.#keys = stateKeys(prefix);
  }
  /**
   * Replaces the directory with a fresh issuer list (one MULTI), returning the ids it listed before: null
   * when none was saved yet, so that a first save is not read as every issuer joining.
   */
  async save(issuers, lastUpdated, fetchedAt) {
    const multi = this.#redis.multi().exists(this.#keys.directoryMeta).hkeys(this.#keys.directory).del(this.#keys.directory);
    if (issuers.length > 0) {
      multi.hset(this.#keys.directory, Object.fromEntries(issuers.map((i) => [i.svc_issuer_id, i.name])));
    }
    multi.set(this.#keys.directoryMeta, JSON.stringify({ lastUpdated, fetchedAt: fetchedAt.toISOString() }));
    const replies = await multi.exec() ?? [];
    if (replies[0]?.[1] !== 1) return null;
    return z.array(z.string()).parse(replies[1]?.[1]);
  }
  /** When the saved list was fetched (its identity: every save writes a new one), or null before the first. */
  async fetchedAt() {
    const meta = await this.#redis.get(this.#keys.directoryMeta);
    return meta === null ? null : metaSchema.parse(JSON.parse(meta)).fetchedAt;
  }
  /** How many issuers the saved directory lists, or null before the first sweep (two small reads). */
  async count() {
    const [size, saved] = await Promise.all([
      this.#redis.hlen(this.#keys.directory),
      this.#redis.exists(this.#keys.directoryMeta)
    ]);
    return saved === 1 ? size : null;
  }
  /** The directory as last saved, or null before the first sweep. */
  async load() {
    const [entries, meta] = await Promise.all([
      this.#redis.hgetall(this.#keys.directory),
      this.#redis.get(this.#keys.directoryMeta)
    ]);
    if (meta === null) return null;
    const parsed = metaSchema.parse(JSON.parse(meta));
    const issuers = Object.entries(entries).map(([svc_issuer_id, name]) => ({ svc_issuer_id, name })).sort((a, b) => a.svc_issuer_id.localeCompare(b.svc_issuer_id));
    return { issuers, ...parsed };
  }
}
export {
  IssuerDirectory
};
