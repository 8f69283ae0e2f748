import { z } from "zod";
import { stateKeys } from "./keys.js";
import { readStored } from "./stored-json.js";
const failingSchema = z.object({
  since: z.string(),
  count: z.number().int().positive(),
  cause: z.string(),
  message: z.string(),
  byCause: z.record(z.string(), z.number()),
  /** When the sweep may plan the issuer again (epoch ms); absent in records written before backoff. */
  retryAt: z.number().optional(),
  /** The issuer list's version the failed poll was planned for: a newer one may earn an early try. */
  version: z.string().nullable().optional()
});
const notFoundSchema = z.object({
  since: z.string(),
  count: z.number().int().positive(),
  retryAt: z.number()
});
const laggingSchema = z.object({
  since: z.string(),
  count: z.number().int().positive(),
  /** The positions answer's `last_updated`, and the issuer list's version it fell short of. */
  answered: z.string(),
  expected: z.string(),
  /** When the sweep may plan it again (`lagBackoffMs`); `count` is the lagging answers for `expected`. */
  retryAt: z.number()
});
const DUE = "due:";
const FAILING = "failing:";
const NOT_FOUND = "not-found:";
const LAGGING = "lagging:";
const ENVELOPE = "envelope:";
const RESTART_DUE_SCRIPT = `
local n = 0
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(field, 1, #ARGV[1]) == ARGV[1] then
    redis.call('HSET', KEYS[1], field, ARGV[2])
    n = n + 1
  end
end
return n
`;
class PollHealth {
  #redis;
  #key;
  constructor(redis, root) {
    this.#redis = redis;
    this.#key = stateKeys(root).pollHealth;
  }
  /** Marks issuers due at `at`, keeping the earliest mark of those already due. */
  async markDue(issuerIds, at) {
    if (issuerIds.length === 0) return;
    const pipeline = this.#redis.pipeline();
    for (const id of issuerIds) pipeline.hsetnx(this.#key, DUE + id, at.toISOString());
    await pipeline.exec();
  }
  /** A poll succeeded (committed, or found the snapshot current): the issuer is healthy again. */
  async succeeded(issuerId) {
    const replies = await this.#redis.multi().hdel(this.#key, FAILING + issuerId).hdel(this.#key, NOT_FOUND + issuerId).hdel(this.#key, DUE + issuerId).hdel(this.#key, LAGGING + issuerId).exec() ?? [];
    return {
      wasFailing: replies[0]?.[1] === 1,
      wasNotFound: replies[1]?.[1] === 1,
      wasLagging: replies[3]?.[1] === 1
    };
  }
  /**
   * Records one failed poll and when the sweep may plan the issuer again (`backoffMs(count)` after
   * it); returns the issuer's failure streak so far.
   */
  async failed(failure) {
    const previous = await this.#read(FAILING + failure.issuerId, failingSchema);
    const { cause, at } = failure;
    const count = (previous?.count ?? 0) + 1;
    const next = {
      since: previous?.since ?? at.toISOString(),
      count,
      cause,
      message: failure.message.slice(0, 300),
      byCause: { ...previous?.byCause, [cause]: (previous?.byCause[cause] ?? 0) + 1 },
      retryAt: at.getTime() + failure.backoffMs(count),
      version: failure.version
    };
    await this.#redis.hset(this.#key, FAILING + failure.issuerId, JSON.stringify(next));
    return next;
  }
  /**
   * A poll committed an answer older than the issuer list's version: the issuer stays due (the gate
   * plans it again at its next check) and its lag is recorded, for a notice when it lasts.
   */
  async lagging(lag) {
    const { issuerId, at } = lag;
    const previous = await this.#read(LAGGING + issuerId, laggingSchema);
    const count = previous?.expected === lag.expected ? previous.count + 1 : 1;
    const next = {
      since: previous?.since ?? at.toISOString(),
      count,
      answered: lag.answered,
      expected: lag.expected,
      retryAt: at.getTime() + lag.backoffMs(count)
    };
    await this.#redis.multi().hdel(this.#key, FAILING + issuerId, NOT_FOUND + issuerId).hset(this.#key, LAGGING + issuerId, JSON.stringify(next)).exec();
    return next;
  }
  /** Records a 404; `backoffMs(count)` says how long to wait before asking again. */
  async notFound(issuerId, at, backoffMs) {
    const previous = await this.#read(NOT_FOUND + issuerId, notFoundSchema);
    const count = (previous?.count ?? 0) + 1;
    const next = {
      since: previous?.since ?? at.toISOString(),
      count,
      retryAt: at.getTime() + backoffMs(count)
    };
    await this.#redis.hset(this.#key, NOT_FOUND + issuerId, JSON.stringify(next));
    return next;
  }
  /**
   * Starts every due mark again at `at`: after Redis lost writes (a failover to a stale replica) the marks
   * came back that polls since had deleted, and their old times would tell polls that ran as overdue.
   */
  async restartDueClocks(at) {
    const reply = await this.#redis.eval(RESTART_DUE_SCRIPT, 1, this.#key, DUE, at.toISOString());
    return z.number().int().parse(reply);
  }
  /** Forgets an issuer's 404 state (`shortwatch resume ISSUER`); true when it had one. */
  async clearNotFound(issuerId) {
    return await this.#redis.hdel(this.#key, NOT_FOUND + issuerId) === 1;
  }
  /** Forgets everything about issuers no longer watched. */
  async forget(issuerIds) {
    if (issuerIds.length === 0) return;
    const fields = issuerIds.flatMap((id) => [DUE + id, FAILING + id, NOT_FOUND + id, LAGGING + id]);
    await this.#redis.hdel(this.#key, ...fields);
  }
  /** Every issuer's health, keyed by issuer id (healthy issuers are absent). */
  async all() {
    return (await this.read()).issuers;
  }
  /**
   * The whole hash in one read: every issuer's health, and the unknown envelope key sets. A damaged field
   * reads as absent: health is advisory and rebuilds itself at the next poll.
   */
  async read() {
    const raw = await this.#redis.hgetall(this.#key);
    const issuers = /* @__PURE__ */ new Map();
    const envelopes = [];
    const entry = (id) => issuers.get(id) ?? issuers.set(id, {}).get(id) ?? {};
    for (const [field, value] of Object.entries(raw)) {
      if (field.startsWith(DUE)) entry(field.slice(DUE.length)).dueSince = value;
      else if (field.startsWith(FAILING)) {
        const failing = readStored(value, failingSchema);
        if (failing) entry(field.slice(FAILING.length)).failing = failing;
      } else if (field.startsWith(NOT_FOUND)) {
        const notFound = readStored(value, notFoundSchema);
        if (notFound) entry(field.slice(NOT_FOUND.length)).notFound = notFound;
      } else if (field.startsWith(LAGGING)) {
        const lagging = readStored(value, laggingSchema);
        if (lagging) entry(field.slice(LAGGING.length)).lagging = lagging;
      } else if (field.startsWith(ENVELOPE)) {
        envelopes.push({ field, keys: field.slice(ENVELOPE.length).split(","), lastSeen: value });
      }
    }
    return { issuers, envelopes };
  }
  /** Records that an answer carried envelope keys we do not know; true the first time for this set. */
  async sawEnvelopeKeys(keys, at) {
    const field = ENVELOPE + [...keys].sort().join(",");
    const first = await this.#redis.hsetnx(this.#key, field, at.toISOString());
    if (first === 0) await this.#redis.hset(this.#key, field, at.toISOString());
    return first === 1;
  }
  /** Forgets an envelope key set no answer has carried for a while. */
  async forgetEnvelope(field) {
    await this.#redis.hdel(this.#key, field);
  }
  async #read(field, schema) {
    const raw = await this.#redis.hget(this.#key, field);
    return raw === null ? void 0 : readStored(raw, schema);
  }
}
export {
  PollHealth
};
