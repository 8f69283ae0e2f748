import { channelStall, describeStall, stalledNoticeKey } from "./stall.js";
const CHECK_EVERY_MS = 1e3;
class StallWatch {
  #ctx;
  #channel;
  #checkedAt = Number.NEGATIVE_INFINITY;
  /** What this process last told; undefined until its first look (another process may have raised it). */
  #stalled;
  constructor(ctx, channel) {
    this.#ctx = ctx;
    this.#channel = channel;
  }
  /** Raises or clears the notice when the stall began or ended; at most once a second. */
  async check(nowMs) {
    if (nowMs - this.#checkedAt < CHECK_EVERY_MS) return;
    this.#checkedAt = nowMs;
    const { stalledAfter } = this.#ctx.settings().config.delivery;
    const oldest = await this.#ctx.outbox.oldestUndelivered(this.#channel, nowMs);
    const stall = channelStall(oldest, nowMs, stalledAfter);
    if (stall.stalled === this.#stalled) return;
    const key = stalledNoticeKey(this.#channel);
    if (stall.stalled && stall.ageMs !== null) {
      const reason = describeStall(this.#channel, stall.ageMs, stalledAfter);
      await this.#ctx.notices.raise(
        key,
        "critical",
        `Deliveries to ${this.#channel} are stalled`,
        `${reason}. Its messages are retried or paused, not lost: see \`shortwatch status\` and the log for the channel's last error.`
      );
    } else {
      await this.#ctx.notices.clear(key, `Deliveries to ${this.#channel} move again.`);
    }
    this.#stalled = stall.stalled;
  }
}
export {
  StallWatch
};
