import type { Redis } from 'ioredis';
import { z } from 'zod';
import { snapshotSchema } from './schemas.js';
import { SnapshotCorruptError } from './snapshot-corrupt-error.js';
import type { Snapshot } from './types.js';

/**
 * Compare-and-set. KEYS[1] snapshot; ARGV[1] expected polledAt ('' = nothing stored yet), ARGV[2] new
 * polledAt, ARGV[3] new JSON. Returns 1 written, 0 lost the race (or stale), -1 stored value unreadable.
 * polledAt strings are canonical toISOString(), so string order is time order.
 */
const COMMIT_SCRIPT = `
local stored = redis.call('GET', KEYS[1])
if not stored then
  if ARGV[1] ~= '' then return 0 end
else
  local ok, decoded = pcall(cjson.decode, stored)
  if not ok or type(decoded) ~= 'table' or type(decoded['polledAt']) ~= 'string' then return -1 end
  local storedAt = decoded['polledAt']
  if ARGV[1] == '' or storedAt ~= ARGV[1] then return 0 end
  if ARGV[2] < storedAt then return 0 end
end
redis.call('SET', KEYS[1], ARGV[3])
return 1
`;

const commitReply = z.union([z.literal(1), z.literal(0), z.literal(-1)]);

/** The last observed positions of each issuer, one JSON value per issuer, written only by compare-and-set. */
export class SnapshotStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** The stored snapshot, or null; throws SnapshotCorruptError when the stored value is unreadable. */
  async get(issuerId: string): Promise<Snapshot | null> {
    const key = this.key(issuerId);
    const raw = await this.redis.get(key);
    return raw === null ? null : parseSnapshot(issuerId, key, raw);
  }

  /**
   * Writes `next` only if the stored snapshot's polledAt is `expectedPolledAt` (null: none stored) and
   * `next` is not older than it. False means a concurrent or stale poll lost the race: drop its work.
   */
  async commit(next: Snapshot, expectedPolledAt: string | null): Promise<boolean> {
    // Never write what get() could not read back.
    const valid = snapshotSchema.parse(next);
    const key = this.key(valid.issuerId);
    const reply = commitReply.parse(
      await this.redis.eval(
        COMMIT_SCRIPT,
        1,
        key,
        expectedPolledAt ?? '',
        valid.polledAt,
        JSON.stringify(valid),
      ),
    );
    if (reply === -1) throw new SnapshotCorruptError(valid.issuerId, key);
    return reply === 1;
  }

  /** Forgets an issuer: its next poll is a first observation again. */
  async delete(issuerId: string): Promise<void> {
    await this.redis.del(this.key(issuerId));
  }

  /** The stored snapshots of many issuers in one MGET; issuers without one are absent from the map. */
  async getMany(issuerIds: readonly string[]): Promise<Map<string, Snapshot>> {
    const found = new Map<string, Snapshot>();
    if (issuerIds.length === 0) return found;
    const keys = issuerIds.map((id) => this.key(id));
    const values = await this.redis.mget(...keys);
    issuerIds.forEach((issuerId, index) => {
      const raw = values[index];
      if (raw !== null && raw !== undefined)
        found.set(issuerId, parseSnapshot(issuerId, keys[index] ?? '', raw));
    });
    return found;
  }

  private key(issuerId: string): string {
    return `${this.prefix}:snapshot:${issuerId}`;
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
