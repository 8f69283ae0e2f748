import { z } from "zod";
import { stateKeys } from "./keys.js";
import { parseStored } from "./stored-json.js";
const attemptRowSchema = z.object({
  channel: z.string(),
  channelKind: z.string(),
  /** The idempotency key the receiver saw (webhook `webhook-id`, Teams card foot, Slack/console text). */
  deliveryId: z.string(),
  /**
   * The e-mail `Message-ID` header, on e-mail channels; a burst's delivery is one e-mail per issuer, whose
   * Message-IDs are listed space-separated, in order (rows written before named `<delivery id@domain>` only).
   */
  messageId: z.string().optional(),
  /** The message's type: events, batch, digest, notice, test. */
  type: z.string(),
  issuers: z.array(z.object({ id: z.string(), name: z.string() })),
  /** Holder names as the message showed them, each once. */
  holders: z.array(z.string()),
  kinds: z.array(z.string()),
  events: z.number().int().min(0),
  /**
   * The first `DELIVERY_IDS_LOGGED` ids of the events the message carried (`events` counts them all): the
   * console's events page joins each event to its message by them. Rows written before had none.
   */
  eventIds: z.array(z.string()).optional(),
  /**
   * The distinct dates the sources give the message's events (position dates) and the distinct times
   * shortwatch first saw them (detected), sorted, each the first `DELIVERY_TIMES_LOGGED`: the two differ
   * for a late filing. Rows written before had none.
   */
  disclosedOn: z.array(z.string()).optional(),
  firstSeen: z.array(z.string()).optional(),
  answer: z.enum(["ok", "error"]),
  /** What the error asked for: try again later, pause the channel, or give up (park). */
  action: z.enum(["retry", "rate-limit", "park"]).optional(),
  /** The error's cause: a channel error code (`no_service`, `EENVELOPE`…) or the error class. */
  cause: z.string().optional(),
  /** The receiver's status: HTTP status or SMTP reply code. */
  status: z.number().int().optional(),
  error: z.string().optional()
});
const APPEND_SCRIPT = `
local id = redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[1], '*', 'a', ARGV[3])
local ms = tonumber(string.match(id, '^(%d+)'))
redis.call('XTRIM', KEYS[1], 'MINID', tostring(ms - tonumber(ARGV[2])))
return id
`;
const PAGE = 1e3;
class DeliveryRecord {
  #redis;
  #key;
  constructor(redis, root) {
    this.#redis = redis;
    this.#key = stateKeys(root).record;
  }
  /** Records one attempt's answer; returns its stream id. */
  async append(row, limits) {
    const json = JSON.stringify(attemptRowSchema.parse(row));
    const id = await this.#redis.eval(APPEND_SCRIPT, 1, this.#key, limits.maxRows, limits.maxAgeMs, json);
    return String(id);
  }
  /**
   * Rows recorded from `sinceMs` up to `untilMs` (both inclusive), a page at a time: oldest first, or
   * newest first with `newestFirst`.
   */
  async *pages(sinceMs, untilMs, newestFirst = false) {
    let low = String(Math.max(0, Math.floor(sinceMs)));
    let high = String(Math.max(0, Math.floor(untilMs)));
    for (; ; ) {
      const entries = newestFirst ? await this.#redis.xrevrange(this.#key, high, low, "COUNT", PAGE) : await this.#redis.xrange(this.#key, low, high, "COUNT", PAGE);
      const rows = entries.flatMap(([id, fields]) => readRow(id, fields));
      if (rows.length > 0) yield rows;
      const last = entries.at(-1);
      if (!last || entries.length < PAGE) return;
      if (newestFirst) high = `(${last[0]}`;
      else low = `(${last[0]}`;
    }
  }
  /** Rows up to `untilMs`, newest first, at most `count`, down to `sinceMs`. */
  async newest(sinceMs, untilMs, count) {
    const since = String(Math.max(0, Math.floor(sinceMs)));
    const until = String(Math.max(0, Math.floor(untilMs)));
    const entries = await this.#redis.xrevrange(this.#key, until, since, "COUNT", count);
    return entries.flatMap(([id, fields]) => readRow(id, fields));
  }
  /** Rows kept now (for `status` and tests). */
  async size() {
    return this.#redis.xlen(this.#key);
  }
}
function readRow(id, fields) {
  const at = Number(id.split("-")[0]);
  const index = fields.indexOf("a");
  const raw = index >= 0 && index % 2 === 0 ? fields[index + 1] : void 0;
  if (raw === void 0 || !Number.isFinite(at)) return [];
  const parsed = parseStored(raw, attemptRowSchema);
  return parsed.success ? [{ ...parsed.data, id, at }] : [];
}
export {
  DeliveryRecord,
  attemptRowSchema
};
