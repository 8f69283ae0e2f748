import { z } from "zod";
import { noticeDeliveryId } from "./delivery-ids.js";
import { stateKeys } from "./keys.js";
import { NOTICE_SCRIPT } from "./outbox-lua.js";
import { outboxItemSchema, recordJson } from "./outbox-records.js";
import { parseStored } from "./stored-json.js";
const activeNoticeSchema = z.object({
  key: z.string(),
  severity: z.enum(["info", "warning", "critical", "resolved"]),
  title: z.string(),
  text: z.string(),
  since: z.string()
});
class Notices {
  #redis;
  #root;
  #deps;
  constructor(redis, root, deps) {
    this.#redis = redis;
    this.#root = root;
    this.#deps = deps;
  }
  /** Raises a problem; only the first raise of an ongoing problem is logged and sent. */
  async raise(key, severity, title, text) {
    const since = this.#deps.now().toISOString();
    const record = { key, severity, title, text, since };
    const message = { type: "notice", key, severity, title, text };
    const created = await this.#apply("raise", severity, record, message, `raise-${since}`);
    if (!created) return false;
    await this.#log(severity, { notice: key, severity }, `${title}: ${text}`);
    return true;
  }
  /**
   * Tells the operator once of something decided, never marked active (nothing to clear): its key
   * dedupes, so telling one decision again (a replayed read) sends nothing more.
   */
  async tell(key, severity, title, text) {
    const record = { key, severity, title, text, since: this.#deps.now().toISOString() };
    const message = { type: "notice", key, severity, title, text };
    await this.#apply("tell", severity, record, message, "told");
    this.#deps.logger.warn({ notice: key, severity }, `${title}: ${text}`);
  }
  /** Clears a problem; sends one `resolved` notice if it was active. */
  async clear(key, text) {
    const raw = await this.#redis.hget(stateKeys(this.#root).notices, key);
    if (raw === null) return false;
    const active = parseStored(raw, activeNoticeSchema);
    const title = active.success ? active.data.title : key;
    const message = { type: "notice", key, severity: "resolved", title, text };
    const was = active.success && active.data.severity === "critical" ? "critical" : "warning";
    const occurrence = `clear-${this.#deps.now().toISOString()}`;
    const cleared = await this.#apply("clear", was, { key, raw }, message, occurrence);
    if (cleared) this.#deps.logger.info({ notice: key }, `Resolved: ${title}: ${text}`);
    return cleared;
  }
  /** Every problem still going on. */
  async list() {
    const all = await this.#redis.hgetall(stateKeys(this.#root).notices);
    return Object.values(all).flatMap((raw) => {
      const parsed = parseStored(raw, activeNoticeSchema);
      return parsed.success ? [parsed.data] : [];
    });
  }
  async #apply(mode, severity, record, message, occurrence) {
    const keys = stateKeys(this.#root);
    const { key } = record;
    const keyArgs = [keys.notices];
    const perChannel = [];
    for (const channel of this.#deps.channelsFor(severity)) {
      const box = keys.outbox(channel);
      const itemId = noticeDeliveryId(channel, key, occurrence);
      keyArgs.push(box.pending, box.items, box.seen);
      perChannel.push(
        itemId,
        recordJson(outboxItemSchema, { kind: "message", deliveryId: itemId, message }),
        channel
      );
    }
    const recordArg = "raw" in record ? record.raw : JSON.stringify(record);
    const reply = await this.#redis.eval(
      NOTICE_SCRIPT,
      keyArgs.length,
      ...keyArgs,
      mode,
      key,
      recordArg,
      keys.outboxWake,
      ...perChannel
    );
    return reply === 1;
  }
  /** Logs a new problem; at error level when the ops channel cannot carry it (none, or parked). */
  async #log(severity, fields, line) {
    const channel = this.#deps.opsChannel();
    const parked = channel ? await this.#redis.hlen(stateKeys(this.#root).outbox(channel).parked) : 0;
    if (parked > 0) this.#deps.logger.error({ ...fields, opsChannelParked: channel }, line);
    else if (severity === "critical") this.#deps.logger.error(fields, line);
    else this.#deps.logger.warn(fields, line);
  }
}
export {
  Notices
};
