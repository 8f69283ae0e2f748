import type { DeliveryParts } from './parts.js';
import { channelStall, describeStall, stalledNoticeKey } from './stall.js';

/** How often the lease holder looks at its channel's oldest undelivered message. */
const CHECK_EVERY_MS = 1_000;

/**
 * Watches one channel's backlog from the deliverer that holds its lease: a message undelivered longer than
 * `delivery.stalledAfter` (a receiver answering 5xx for a quarter of an hour, a long pause) raises the
 * critical `channel-stalled-<channel>` notice, and the message leaving clears it. `/readyz`, `status` and
 * the metric read the same age from Redis themselves, so every process answers for the channel.
 */
export class StallWatch {
  readonly #ctx: DeliveryParts;
  readonly #channel: string;
  #checkedAt = Number.NEGATIVE_INFINITY;
  /** What this process last told; undefined until its first look (another process may have raised it). */
  #stalled: boolean | undefined;

  constructor(ctx: DeliveryParts, channel: string) {
    this.#ctx = ctx;
    this.#channel = channel;
  }

  /** Raises or clears the notice when the stall began or ended; at most once a second. */
  async check(nowMs: number): Promise<void> {
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
        'critical',
        `Deliveries to ${this.#channel} are stalled`,
        `${reason}. Its messages are retried or paused, not lost: see \`shortwatch status\` and the log for the channel's last error.`,
      );
    } else {
      await this.#ctx.notices.clear(key, `Deliveries to ${this.#channel} move again.`);
    }
    this.#stalled = stall.stalled;
  }
}
