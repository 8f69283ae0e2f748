import { z } from "zod";
import { REGISTER_KINDS } from "../config/schema/sources.js";
import { snapshotSchema } from "../positions/schemas.js";
import { registerKeys } from "./keys.js";
import { readStored } from "./stored-json.js";
const healthSchema = z.object({
  status: z.enum(["read", "not-read"]),
  reason: z.string().optional(),
  detail: z.string().optional(),
  at: z.string(),
  lastGoodAt: z.string().optional(),
  since: z.string()
});
const readSchema = z.object({
  etag: z.string().optional(),
  lastModified: z.string().optional(),
  rows: z.coerce.number().int().nonnegative(),
  companionEtag: z.string().optional(),
  companionLastModified: z.string().optional(),
  companionRows: z.coerce.number().int().nonnegative().optional()
});
const pointSchema = z.object({ date: z.string(), percent: z.number(), endedOn: z.string().optional() });
const namedSchema = z.object({
  holder: z.string(),
  holderKey: z.string(),
  percent: z.number(),
  date: z.string()
});
const lastSchema = z.object({
  at: z.string(),
  snapshot: z.object({
    kind: z.enum(REGISTER_KINDS),
    content: z.enum(["positions", "scope"]),
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
        aggregate: z.object({ percent: z.number(), date: z.string(), thresholdPercent: z.number() }).optional(),
        aggregateHistory: z.array(pointSchema).optional(),
        namedElsewhere: z.number().optional(),
        otherIsins: z.array(z.string()).optional()
      })
    )
  })
});
const heldSchema = z.object({
  fingerprint: z.string(),
  since: z.string(),
  text: z.string(),
  readAgainAt: z.string().optional()
});
class RegisterStore {
  #redis;
  #root;
  constructor(redis, root) {
    this.#redis = redis;
    this.#root = root;
  }
  /** The keys of one source. */
  keys(source) {
    return registerKeys(this.#root, source);
  }
  /** The last good read of a source, or undefined before the first one (or when unreadable). */
  async lastRead(source) {
    const parsed = readSchema.safeParse(await this.#redis.hgetall(this.keys(source).read));
    if (!parsed.success) return void 0;
    const { etag, lastModified, rows, companionEtag, companionLastModified, companionRows } = parsed.data;
    const last = { validators: validators(etag, lastModified), rows };
    if (companionRows !== void 0)
      last.companion = { validators: validators(companionEtag, companionLastModified), rows: companionRows };
    return last;
  }
  /** The last good read's issuers, or null before the first one (or when unreadable: a new baseline). */
  async lastSnapshot(source) {
    return readStored(await this.#redis.get(this.keys(source).last), lastSchema) ?? null;
  }
  /**
   * Forgets every issuer the source stored and its last read: the next read is a silent baseline, as
   * a source's first. For a source whose config now reads another register under the same name.
   */
  async forgetIssuers(source) {
    const keys = this.keys(source);
    const issuers = await this.issuerKeys(source);
    const multi = this.#redis.multi();
    for (const issuer of issuers) multi.del(keys.snapshot(issuer));
    await multi.del(keys.issuers, keys.last, keys.held).exec();
    return issuers.length;
  }
  /** Keeps a good read for the next aggregate diff; a history file's every row is left out. */
  async saveSnapshot(source, snapshot, at) {
    await this.#redis.set(this.keys(source).last, keptJson(snapshot, at));
  }
  /**
   * Keeps a good read with the validators and row count of the file it came from, in one write (so a
   * file's validators are never stored beside another file's read), and forgets any read held back.
   * Written after its issuers were committed, so a crash reads the file again.
   */
  async saveKept(source, read, at) {
    const keys = this.keys(source);
    const fields = {
      ...fileFields(read.read, ""),
      ...read.read.companion === void 0 ? {} : fileFields(read.read.companion, "companion"),
      at: at.toISOString()
    };
    await this.#redis.multi().del(keys.read, keys.held).hset(keys.read, fields).set(keys.last, keptJson(read.snapshot, at)).exec();
  }
  /** The read held back for confirmation, or null. */
  async held(source) {
    const parsed = heldSchema.safeParse(await this.#redis.hgetall(this.keys(source).held));
    return parsed.success ? parsed.data : null;
  }
  /** Holds a read back until a confirming read agrees (replacing one held before). */
  async hold(source, held) {
    const key = this.keys(source).held;
    await this.#redis.multi().del(key).hset(key, held).exec();
  }
  /** Forgets the read held back: confirmed, or replaced by one that restored what it removed. */
  async release(source) {
    return await this.#redis.del(this.keys(source).held) > 0;
  }
  /** The source's health, or null before its first attempt. */
  async health(source) {
    const raw = await this.#redis.hgetall(this.keys(source).health);
    const parsed = healthSchema.safeParse(raw);
    return parsed.success ? parsed.data : null;
  }
  /** Records the outcome of one attempt; the previous status's `since` carries over while it lasts. */
  async recordHealth(source, outcome, at) {
    const before = await this.health(source);
    const iso = at.toISOString();
    const after = {
      ...outcome,
      at: iso,
      since: before?.status === outcome.status ? before.since : iso
    };
    const lastGoodAt = outcome.status === "read" ? iso : before?.lastGoodAt;
    if (lastGoodAt !== void 0) after.lastGoodAt = lastGoodAt;
    const key = this.keys(source).health;
    const fields = Object.fromEntries(Object.entries(after).map(([k, v]) => [k, String(v)]));
    await this.#redis.multi().del(key).hset(key, fields).exec();
    return { before, after };
  }
  /** Issuer keys that have a snapshot in this source. */
  async issuerKeys(source) {
    return this.#redis.smembers(this.keys(source).issuers);
  }
  /** The stored snapshots of these issuers; an unreadable one is absent (taken as a first sight). */
  async snapshots(source, issuerKeys) {
    const found = /* @__PURE__ */ new Map();
    if (issuerKeys.length === 0) return found;
    const pipeline = this.#redis.pipeline();
    for (const key of issuerKeys) pipeline.hget(this.keys(source).snapshot(key), "json");
    const replies = await pipeline.exec() ?? [];
    issuerKeys.forEach((key, index) => {
      const raw = replies[index]?.[1];
      const snapshot = typeof raw === "string" ? readStored(raw, snapshotSchema) : void 0;
      if (snapshot !== void 0) found.set(key, snapshot);
    });
    return found;
  }
}
function keptJson(snapshot, at) {
  const issuers = snapshot.issuers.map(({ history: _history, ...issuer }) => issuer);
  const stored = { at: at.toISOString(), snapshot: { ...snapshot, issuers } };
  return JSON.stringify(stored);
}
function validators(etag, lastModified) {
  return { ...etag ? { etag } : {}, ...lastModified ? { lastModified } : {} };
}
function fileFields(file, prefix) {
  const field = (name) => prefix === "" ? name : `${prefix}${name[0]?.toUpperCase()}${name.slice(1)}`;
  const fields = { [field("rows")]: String(file.rows) };
  if (file.validators.etag !== void 0) fields[field("etag")] = file.validators.etag;
  if (file.validators.lastModified !== void 0)
    fields[field("lastModified")] = file.validators.lastModified;
  return fields;
}
export {
  RegisterStore
};
