import { z } from 'zod';
import { REGISTER_KINDS } from '../config/schema/sources.js';
import { snapshotSchema } from '../positions/schemas.js';
import type { Snapshot } from '../positions/types.js';
import type { FileRead, LastRead, RegisterSnapshot, Validators } from '../sources/types.js';
import { registerKeys } from './keys.js';
import type { RedisClient } from './redis-connection.js';
import { readStored } from './stored-json.js';

/** How a register source's last attempt went: read (or unchanged), or refused with the reason. */
export interface SourceHealth {
  status: 'read' | 'not-read';
  /** The `NotReadReason` of a refused read. */
  reason?: string;
  detail?: string;
  /** When the last attempt ended (ISO). */
  at: string;
  /** When the file was last read or found unchanged (ISO); absent before the first good read. */
  lastGoodAt?: string;
  /** When the current status began (ISO): how long a source has not been read. */
  since: string;
}

const healthSchema = z.object({
  status: z.enum(['read', 'not-read']),
  reason: z.string().optional(),
  detail: z.string().optional(),
  at: z.string(),
  lastGoodAt: z.string().optional(),
  since: z.string(),
});

const readSchema = z.object({
  etag: z.string().optional(),
  lastModified: z.string().optional(),
  rows: z.coerce.number().int().nonnegative(),
  companionEtag: z.string().optional(),
  companionLastModified: z.string().optional(),
  companionRows: z.coerce.number().int().nonnegative().optional(),
});

const pointSchema = z.object({ date: z.string(), percent: z.number(), endedOn: z.string().optional() });
const namedSchema = z.object({
  holder: z.string(),
  holderKey: z.string(),
  percent: z.number(),
  date: z.string(),
});
const lastSchema = z.object({
  at: z.string(),
  snapshot: z.object({
    kind: z.enum(REGISTER_KINDS),
    content: z.enum(['positions', 'scope']),
    rows: z.number(),
    namesHolders: z.boolean(),
    publishedOn: z.string().optional(),
    aggregateThreshold: z.number().optional(),
    issuers: z.array(
      z.object({
        key: z.string(),
        isin: z.string().optional(),
        lei: z.string().optional(),
        name: z.string(),
        positions: z.array(namedSchema),
        aggregate: z
          .object({ percent: z.number(), date: z.string(), thresholdPercent: z.number() })
          .optional(),
        aggregateHistory: z.array(pointSchema).optional(),
        namedElsewhere: z.number().optional(),
        otherIsins: z.array(z.string()).optional(),
      }),
    ),
  }),
});

const heldSchema = z.object({
  fingerprint: z.string(),
  since: z.string(),
  text: z.string(),
  readAgainAt: z.string().optional(),
});

/** A read held back because it removed much of the register: what it removed, and since when. */
export type HeldRead = z.infer<typeof heldSchema>;

/** The last good read of a register as kept for the aggregate diff, and when it was read. */
export interface StoredRead {
  /** When it was read (ISO): the occurrence the next read's aggregate events move from. */
  at: string;
  snapshot: RegisterSnapshot;
}

/**
 * What shortwatch keeps of each whole-register source: the last good read (validators and row count),
 * its health, and per issuer the named positions last read (written by the poll commit, read here).
 */
export class RegisterStore {
  readonly #redis: RedisClient;
  readonly #root: string;

  constructor(redis: RedisClient, root: string) {
    this.#redis = redis;
    this.#root = root;
  }

  /** The keys of one source. */
  keys(source: string) {
    return registerKeys(this.#root, source);
  }

  /** The last good read of a source, or undefined before the first one (or when unreadable). */
  async lastRead(source: string): Promise<LastRead | undefined> {
    const parsed = readSchema.safeParse(await this.#redis.hgetall(this.keys(source).read));
    if (!parsed.success) return undefined;
    const { etag, lastModified, rows, companionEtag, companionLastModified, companionRows } = parsed.data;
    const last: LastRead = { validators: validators(etag, lastModified), rows };
    if (companionRows !== undefined)
      last.companion = { validators: validators(companionEtag, companionLastModified), rows: companionRows };
    return last;
  }

  /** The last good read's issuers, or null before the first one (or when unreadable: a new baseline). */
  async lastSnapshot(source: string): Promise<StoredRead | null> {
    return readStored(await this.#redis.get(this.keys(source).last), lastSchema) ?? null;
  }

  /**
   * Forgets every issuer the source stored and its last read: the next read is a silent baseline, as
   * a source's first. For a source whose config now reads another register under the same name.
   */
  async forgetIssuers(source: string): Promise<number> {
    const keys = this.keys(source);
    const issuers = await this.issuerKeys(source);
    const multi = this.#redis.multi();
    for (const issuer of issuers) multi.del(keys.snapshot(issuer));
    await multi.del(keys.issuers, keys.last, keys.held).exec();
    return issuers.length;
  }

  /** Keeps a good read for the next aggregate diff; a history file's every row is left out. */
  async saveSnapshot(source: string, snapshot: RegisterSnapshot, at: Date): Promise<void> {
    await this.#redis.set(this.keys(source).last, keptJson(snapshot, at));
  }

  /**
   * Keeps a good read with the validators and row count of the file it came from, in one write (so a
   * file's validators are never stored beside another file's read), and forgets any read held back.
   * Written after its issuers were committed, so a crash reads the file again.
   */
  async saveKept(
    source: string,
    read: { snapshot: RegisterSnapshot; read: LastRead },
    at: Date,
  ): Promise<void> {
    const keys = this.keys(source);
    const fields: Record<string, string> = {
      ...fileFields(read.read, ''),
      ...(read.read.companion === undefined ? {} : fileFields(read.read.companion, 'companion')),
      at: at.toISOString(),
    };
    await this.#redis
      .multi()
      .del(keys.read, keys.held)
      .hset(keys.read, fields)
      .set(keys.last, keptJson(read.snapshot, at))
      .exec();
  }

  /** The read held back for confirmation, or null. */
  async held(source: string): Promise<HeldRead | null> {
    const parsed = heldSchema.safeParse(await this.#redis.hgetall(this.keys(source).held));
    return parsed.success ? parsed.data : null;
  }

  /** Holds a read back until a confirming read agrees (replacing one held before). */
  async hold(source: string, held: HeldRead): Promise<void> {
    const key = this.keys(source).held;
    await this.#redis.multi().del(key).hset(key, held).exec();
  }

  /** Forgets the read held back: confirmed, or replaced by one that restored what it removed. */
  async release(source: string): Promise<boolean> {
    return (await this.#redis.del(this.keys(source).held)) > 0;
  }

  /** The source's health, or null before its first attempt. */
  async health(source: string): Promise<SourceHealth | null> {
    const raw = await this.#redis.hgetall(this.keys(source).health);
    const parsed = healthSchema.safeParse(raw);
    return parsed.success ? parsed.data : null;
  }

  /** Records the outcome of one attempt; the previous status's `since` carries over while it lasts. */
  async recordHealth(
    source: string,
    outcome: { status: 'read' } | { status: 'not-read'; reason: string; detail: string },
    at: Date,
  ): Promise<{ before: SourceHealth | null; after: SourceHealth }> {
    const before = await this.health(source);
    const iso = at.toISOString();
    const after: SourceHealth = {
      ...outcome,
      at: iso,
      since: before?.status === outcome.status ? before.since : iso,
    };
    const lastGoodAt = outcome.status === 'read' ? iso : before?.lastGoodAt;
    if (lastGoodAt !== undefined) after.lastGoodAt = lastGoodAt;
    const key = this.keys(source).health;
    const fields = Object.fromEntries(Object.entries(after).map(([k, v]) => [k, String(v)]));
    await this.#redis.multi().del(key).hset(key, fields).exec();
    return { before, after };
  }

  /** Issuer keys that have a snapshot in this source. */
  async issuerKeys(source: string): Promise<string[]> {
    return this.#redis.smembers(this.keys(source).issuers);
  }

  /** The stored snapshots of these issuers; an unreadable one is absent (taken as a first sight). */
  async snapshots(source: string, issuerKeys: readonly string[]): Promise<Map<string, Snapshot>> {
    const found = new Map<string, Snapshot>();
    if (issuerKeys.length === 0) return found;
    const pipeline = this.#redis.pipeline();
    for (const key of issuerKeys) pipeline.hget(this.keys(source).snapshot(key), 'json');
    const replies = (await pipeline.exec()) ?? [];
    issuerKeys.forEach((key, index) => {
      const raw = replies[index]?.[1];
      const snapshot = typeof raw === 'string' ? readStored(raw, snapshotSchema) : undefined;
      if (snapshot !== undefined) found.set(key, snapshot);
    });
    return found;
  }
}

/** A read as kept: a history file's every row left out. */
function keptJson(snapshot: RegisterSnapshot, at: Date): string {
  const issuers = snapshot.issuers.map(({ history: _history, ...issuer }) => issuer);
  const stored: StoredRead = { at: at.toISOString(), snapshot: { ...snapshot, issuers } };
  return JSON.stringify(stored);
}

function validators(etag: string | undefined, lastModified: string | undefined): Validators {
  return { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
}

/** One file's read as hash fields: `rows`, `etag`, `lastModified`, or the same after `prefix` (camelCase). */
function fileFields(file: FileRead, prefix: '' | 'companion'): Record<string, string> {
  const field = (name: string) =>
    prefix === '' ? name : `${prefix}${name[0]?.toUpperCase()}${name.slice(1)}`;
  const fields: Record<string, string> = { [field('rows')]: String(file.rows) };
  if (file.validators.etag !== undefined) fields[field('etag')] = file.validators.etag;
  if (file.validators.lastModified !== undefined)
    fields[field('lastModified')] = file.validators.lastModified;
  return fields;
}
