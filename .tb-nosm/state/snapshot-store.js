import { snapshotSchema } from "../positions/schemas.js";
import { stateKeys } from "./keys.js";
import { SnapshotCorruptError } from "./snapshot-corrupt-error.js";
class SnapshotStore {
  #redis;
  #root;
  constructor(redis, root) {
    this.#redis = redis;
    this.#root = root;
  }
  /** The stored snapshot, or null; throws SnapshotCorruptError when the stored value is unreadable. */
  async get(issuerId) {
    const key = this.#key(issuerId);
    const raw = await this.#redis.hget(key, "json").catch((cause) => {
      throw new SnapshotCorruptError(issuerId, key, { cause });
    });
    return raw === null ? null : parseSnapshot(issuerId, key, raw);
  }
  /** Forgets an issuer on purpose: its next poll is a first observation again, and no loss is reported. */
  async delete(issuerId) {
    await this.#redis.multi().del(this.#key(issuerId)).srem(stateKeys(this.#root).baselined, issuerId).exec();
  }
  /** The stored snapshots of many issuers in one pipeline; issuers without one are absent from the map. */
  async getMany(issuerIds) {
    const { snapshots, corrupt } = await this.readMany(issuerIds);
    if (corrupt[0]) throw corrupt[0];
    return snapshots;
  }
  /**
   * Like {@link getMany}, but an unreadable snapshot is reported apart instead of failing the read: one
   * damaged value must not stop the sweep that plans every other issuer.
   */
  async readMany(issuerIds) {
    const snapshots = /* @__PURE__ */ new Map();
    const corrupt = [];
    if (issuerIds.length === 0) return { snapshots, corrupt };
    const pipeline = this.#redis.pipeline();
    for (const id of issuerIds) pipeline.hget(this.#key(id), "json");
    const replies = await pipeline.exec() ?? [];
    issuerIds.forEach((issuerId, index) => {
      const [error, raw] = replies[index] ?? [null, null];
      const key = this.#key(issuerId);
      try {
        if (error) throw new SnapshotCorruptError(issuerId, key, { cause: error });
        if (typeof raw === "string") snapshots.set(issuerId, parseSnapshot(issuerId, key, raw));
      } catch (failure) {
        if (!(failure instanceof SnapshotCorruptError)) throw failure;
        corrupt.push(failure);
      }
    });
    return { snapshots, corrupt };
  }
  #key(issuerId) {
    return stateKeys(this.#root).snapshot(issuerId);
  }
}
function parseSnapshot(issuerId, key, raw) {
  let json;
  try {
    json = JSON.parse(raw);
  } catch (cause) {
    throw new SnapshotCorruptError(issuerId, key, { cause });
  }
  const parsed = snapshotSchema.safeParse(json);
  if (!parsed.success) throw new SnapshotCorruptError(issuerId, key, { cause: parsed.error });
  if (parsed.data.issuerId !== issuerId) throw new SnapshotCorruptError(issuerId, key);
  return parsed.data;
}
export {
  SnapshotStore
};
