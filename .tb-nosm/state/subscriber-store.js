import { randomBytes } from "node:crypto";
import { z } from "zod";
import { issuerNameKey } from "../routing/match-keys.js";
import {
  subscriberInputSchema,
  subscriberSchema
} from "../routing/subscriber.js";
import { stateKeys } from "./keys.js";
import { readStored } from "./stored-json.js";
class SubscriberChangeError extends Error {
  constructor(message, reason) {
    super(message);
    this.reason = reason;
    this.name = "SubscriberChangeError";
  }
  reason;
}
function isSubscriberChangeError(error) {
  return error instanceof SubscriberChangeError;
}
const AUDIT_KEPT = 1e5;
const CHANGE_RETRIES = 10;
const auditFields = z.object({
  id: z.string(),
  action: z.string(),
  version: z.coerce.number(),
  who: z.string(),
  via: z.string(),
  from: z.string().default(""),
  at: z.string()
});
function issuerIndexKeys(subscriber) {
  return [...new Set((subscriber?.watch.issuers ?? []).map(issuerNameKey).filter((k) => k !== ""))];
}
class SubscriberStore {
  #redis;
  #keys;
  #now;
  constructor(redis, root, now = () => /* @__PURE__ */ new Date()) {
    this.#redis = redis;
    this.#keys = stateKeys(root);
    this.#now = now;
  }
  /** The input as the store would take it, or a {@link SubscriberChangeError} naming the first problem. */
  check(input) {
    const parsed = subscriberInputSchema.safeParse(input);
    if (!parsed.success) throw invalid(parsed.error.issues[0]);
    return parsed.data;
  }
  /** Adds a subscriber; an address already subscribed is refused. */
  async add(input, actor) {
    const parsed = this.check(input);
    const at = this.#now().toISOString();
    const subscriber = subscriberSchema.parse({
      ...parsed,
      id: randomBytes(6).toString("hex"),
      version: 1,
      linkGeneration: 0,
      createdAt: at,
      updatedAt: at
    });
    await this.#write(void 0, subscriber, "added", actor);
    return subscriber;
  }
  /**
   * Changes a subscriber through `change`, which sees the stored record; `expectedVersion` (from a form
   * that showed an older one) refuses an edit made over someone else's.
   */
  async update(id, change, actor, action = "edited", expectedVersion) {
    for (let attempt = 0; attempt < CHANGE_RETRIES; attempt++) {
      const current = await this.get(id);
      if (!current) throw new SubscriberChangeError(`no subscriber ${id}`, "not-found");
      if (expectedVersion !== void 0 && current.version !== expectedVersion) {
        throw new SubscriberChangeError(
          `subscriber ${id} changed since it was read (version ${current.version}, not ${expectedVersion}): reload and edit again`,
          "stale"
        );
      }
      const next = checked({
        ...change(current),
        id,
        version: current.version + 1,
        createdAt: current.createdAt,
        updatedAt: this.#now().toISOString()
      });
      if (await this.#write(current, next, action, actor) === "ok") return next;
    }
    throw new SubscriberChangeError(`subscriber ${id} kept changing under this edit: try again`, "stale");
  }
  /** Removes a subscriber and its index entries; its outbox drains what it already holds. */
  async remove(id, actor) {
    for (let attempt = 0; attempt < CHANGE_RETRIES; attempt++) {
      const current = await this.get(id);
      if (!current) throw new SubscriberChangeError(`no subscriber ${id}`, "not-found");
      if (await this.#write(current, void 0, "removed", actor) === "ok") return current;
    }
    throw new SubscriberChangeError(`subscriber ${id} kept changing: try again`, "stale");
  }
  /** One subscriber, or undefined when absent or unreadable. */
  async get(id) {
    return readStored(await this.#redis.hget(this.#keys.subscribers, id), subscriberSchema);
  }
  /** The subscriber with this address (any case), if any. */
  async byEmail(email) {
    const id = await this.#redis.hget(this.#keys.subscriberEmails, email.trim().toLowerCase());
    return id === null ? void 0 : this.get(id);
  }
  /** Every subscriber, by name: for the CLI, the console and an export, never for routing. */
  async list() {
    const all = await this.#redis.hvals(this.#keys.subscribers);
    return all.map((raw) => readStored(raw, subscriberSchema)).filter((s) => s !== void 0).sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  }
  /** How many subscribers there are. */
  async count() {
    return this.#redis.hlen(this.#keys.subscribers);
  }
  /**
   * The subscribers who may follow any of these issuers (by the index) or any holder anywhere: a routing
   * step costs work in proportion to them, not to every subscriber. The caller matches exactly.
   */
  async candidates(issuers) {
    const entryKeys = [...new Set(issuers.flatMap((i) => [issuerNameKey(i.id), issuerNameKey(i.name)]))];
    const sets = [
      ...entryKeys.filter((k) => k !== "").map((k) => this.#keys.subscriberIssuerIndex(k)),
      this.#keys.subscriberHolderWatchers
    ];
    const ids = await this.#redis.sunion(...sets);
    if (ids.length === 0) return [];
    const raws = await this.#redis.hmget(this.#keys.subscribers, ...ids);
    return raws.map((raw) => readStored(raw, subscriberSchema)).filter((s) => s !== void 0);
  }
  /** A number every change raises: unchanged, nothing was changed since it was read. */
  async version() {
    return await this.#redis.get(this.#keys.subscribersVersion) ?? "0";
  }
  /** Every issuer entry some subscriber follows: the union polling follows. */
  async followedIssuers() {
    const entries = /* @__PURE__ */ new Set();
    for (const subscriber of await this.list())
      for (const issuer of subscriber.watch.issuers) entries.add(issuer);
    return [...entries].sort();
  }
  /** The audit trail, newest first, of one subscriber or of all. */
  async audit(id, count = 200) {
    const rows = await this.#redis.xrevrange(
      this.#keys.subscriberAudit,
      "+",
      "-",
      "COUNT",
      id ? count * 20 : count
    );
    const entries = [];
    for (const [, flat] of rows) {
      const parsed = auditFields.safeParse(Object.fromEntries(pairs(flat)));
      if (!parsed.success || id && parsed.data.id !== id) continue;
      entries.push({ ...parsed.data, subscriberId: parsed.data.id });
      if (entries.length >= count) break;
    }
    return entries;
  }
  /**
   * Writes the move from `before` to `after` (either absent) in one script: refused as stale when the
   * stored record is no longer `before`'s bytes, as taken when another subscriber has `after`'s address.
   */
  async #write(before, after, action, actor) {
    const keys = this.#keys;
    const subject = after ?? before;
    const id = subject?.id ?? "";
    const removed = issuerIndexKeys(before).filter((k) => !issuerIndexKeys(after).includes(k));
    const added = issuerIndexKeys(after);
    const reply = await this.#redis.eval(
      WRITE_SCRIPT,
      5 + removed.length + added.length,
      keys.subscribers,
      keys.subscriberEmails,
      keys.subscriberHolderWatchers,
      keys.subscriberAudit,
      keys.subscribersVersion,
      ...removed.map((k) => keys.subscriberIssuerIndex(k)),
      ...added.map((k) => keys.subscriberIssuerIndex(k)),
      id,
      before ? JSON.stringify(before) : "",
      after ? JSON.stringify(after) : "",
      before?.email.toLowerCase() ?? "",
      after?.email.toLowerCase() ?? "",
      after && after.watch.holders.length > 0 ? "1" : "0",
      removed.length,
      AUDIT_KEPT,
      ...auditRow(subject, action, actor, this.#now())
    );
    if (typeof reply === "string" && reply.startsWith("taken:")) {
      throw new SubscriberChangeError(
        `${after?.email ?? ""} is subscribed already (subscriber ${reply.slice(6)})`,
        "email-taken"
      );
    }
    return reply === 1 ? "ok" : "stale";
  }
}
const WRITE_SCRIPT = `
local id, expected, nextRaw = ARGV[1], ARGV[2], ARGV[3]
local current = redis.call('HGET', KEYS[1], id)
if (current or '') ~= expected then return 0 end
if ARGV[5] ~= '' then
  local owner = redis.call('HGET', KEYS[2], ARGV[5])
  if owner and owner ~= id then return 'taken:' .. owner end
end
local nRemoved = tonumber(ARGV[7])
for i = 6, 5 + nRemoved do redis.call('SREM', KEYS[i], id) end
if ARGV[4] ~= '' and ARGV[4] ~= ARGV[5] then redis.call('HDEL', KEYS[2], ARGV[4]) end
if nextRaw == '' then
  redis.call('HDEL', KEYS[1], id)
  redis.call('SREM', KEYS[3], id)
else
  redis.call('HSET', KEYS[1], id, nextRaw)
  redis.call('HSET', KEYS[2], ARGV[5], id)
  for i = 6 + nRemoved, #KEYS do redis.call('SADD', KEYS[i], id) end
  if ARGV[6] == '1' then redis.call('SADD', KEYS[3], id) else redis.call('SREM', KEYS[3], id) end
end
local row = {}
for i = 9, #ARGV do row[#row + 1] = ARGV[i] end
redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[8], '*', unpack(row))
redis.call('INCR', KEYS[5])
return 1
`;
function auditRow(subject, action, actor, now) {
  return [
    "id",
    subject?.id ?? "",
    "action",
    action,
    "version",
    String(subject?.version ?? 0),
    "who",
    actor.who,
    "via",
    actor.via,
    "from",
    actor.from ?? "",
    "at",
    now.toISOString()
  ];
}
function pairs(flat) {
  const out = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i] ?? "", flat[i + 1] ?? ""]);
  return out;
}
function invalid(issue) {
  return new SubscriberChangeError(
    `${issue?.path.join(".") || "subscriber"}: ${issue?.message ?? "invalid"}`,
    "invalid"
  );
}
function checked(candidate) {
  const parsed = subscriberSchema.safeParse(candidate);
  if (!parsed.success) throw invalid(parsed.error.issues[0]);
  return parsed.data;
}
export {
  SubscriberChangeError,
  SubscriberStore,
  isSubscriberChangeError
};
