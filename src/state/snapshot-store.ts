import { snapshotSchema } from '../positions/schemas.js';
import type { Snapshot } from '../positions/types.js';
import { stateKeys } from './keys.js';
import type { RedisClient } from './redis-connection.js';
import { SnapshotCorruptError } from './snapshot-corrupt-error.js';

/**
 * The last observed positions of each issuer: one hash per issuer with `at` (its `polledAt`, what the
 * compare-and-set compares) and `json` (the snapshot). Written only by the poll's commit (poll-commit.ts).
 */
export class SnapshotStore {
  readonly #redis: RedisClient;
  readonly #root: string;

  constructor(redis: RedisClient, root: string) {
    this.#redis = redis;
    this.#root = root;
  }

  /** The stored snapshot, or null; throws SnapshotCorruptError when the stored value is unreadable. */
  async get(issuerId: string): Promise<Snapshot | null> {
    const key = this.#key(issuerId);
    const raw = await this.#redis.hget(key, 'json').catch((cause: unknown) => {
      throw new SnapshotCorruptError(issuerId, key, { cause });
    });
    return raw === null ? null : parseSnapshot(issuerId, key, raw);
  }

  /** Forgets an issuer on purpose: its next poll is a first observation again, and no loss is reported. */
  async delete(issuerId: string): Promise<void> {
    await this.#redis.multi().del(this.#key(issuerId)).srem(stateKeys(this.#root).baselined, issuerId).exec();
  }

  /** The stored snapshots of many issuers in one pipeline; issuers without one are absent from the map. */
  async getMany(issuerIds: readonly string[]): Promise<Map<string, Snapshot>> {
    const { snapshots, corrupt } = await this.readMany(issuerIds);
    if (corrupt[0]) throw corrupt[0];
    return snapshots;
  }

  /**
   * Like {@link getMany}, but an unreadable snapshot is reported apart instead of failing the read: one
   * damaged value must not stop the sweep that plans every other issuer.
   */
  async readMany(
    issuerIds: readonly string[],
  ): Promise<{ snapshots: Map<string, Snapshot>; corrupt: SnapshotCorruptError[] }> {
    const snapshots = new Map<string, Snapshot>();
    const corrupt: SnapshotCorruptError[] = [];
    if (issuerIds.length === 0) return { snapshots, corrupt };
    const pipeline = this.#redis.pipeline();
    for (const id of issuerIds) pipeline.hget(this.#key(id), 'json');
    const replies = (await pipeline.exec()) ?? [];
    issuerIds.forEach((issuerId, index) => {
      const [error, raw] = replies[index] ?? [null, null];
      const key = this.#key(issuerId);
      try {
        if (error) throw new SnapshotCorruptError(issuerId, key, { cause: error });
        if (typeof raw === 'string') snapshots.set(issuerId, parseSnapshot(issuerId, key, raw));
      } catch (failure) {
        if (!(failure instanceof SnapshotCorruptError)) throw failure;
        corrupt.push(failure);
      }
    });
    return { snapshots, corrupt };
  }

  #key(issuerId: string): string {
    return stateKeys(this.#root).snapshot(issuerId);
  }
}

function parseSnapshot(issuerId: string, key: string, raw: string): Snapshot {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (cause) {
    throw new SnapshotCorruptError(issuerId, key, { cause });
  }
  const parsed = snapshotSchema.safeParse(json);
  if (!parsed.success) throw new SnapshotCorruptError(issuerId, key, { cause: parsed.error });
  // A snapshot of another issuer under this key would diff two different registers.
  if (parsed.data.issuerId !== issuerId) throw new SnapshotCorruptError(issuerId, key);
  return parsed.data;
}
