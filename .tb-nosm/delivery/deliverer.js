import { isDeliveryError } from "../channels/delivery-error.js";
import { subscriberIdOf } from "../routing/subscriber.js";
import { stateKeys } from "../state/keys.js";
import { Lease } from "../state/lease.js";
import { backoffMs } from "./backoff.js";
import { channelTarget } from "./channel-target.js";
import { composeNext, inflightOf } from "./compose.js";
import { describeCap, rateLimitPause } from "./retry-after-cap.js";
import { StallWatch } from "./stall-watch.js";
const DRAIN_LEASE_MS = 6e3;
const IDLE_MS = 1e3;
const READ_LIMIT = 2e3;
const RECORD_RETRY_MS = { first: 100, max: 2e3 };
const RESTORE_EVERY_MS = 6e4;
class ChannelDeliverer {
  #ctx;
  #channel;
  #lease;
  #running = false;
  #loop;
  #wake;
  #woken = false;
  /** A message the receiver accepted whose end Redis has not recorded yet: finished before anything else. */
  #unrecorded;
  /** Whether a send is under way: its message may be accepted any moment, so its claim must stay. */
  #sending = false;
  /** Failed attempts to record {@link #unrecorded}, for the backoff. */
  #recordFailures = 0;
  /** Parts of a split message known sent, kept here too in case Redis missed the update. */
  #progress;
  #stall;
  /** Whether a capped Retry-After's notice may be active: cleared at the next message sent. */
  #capTold = true;
  /** Redis' time minus the host's, as of the last look: every stamp and comparison is on Redis' clock. */
  #offsetMs = 0;
  /** Redis' time of the last look at the records set aside as unreadable. */
  #restoredAt = Number.NEGATIVE_INFINITY;
  constructor(ctx, channel) {
    this.#ctx = ctx;
    this.#channel = channel;
    this.#stall = new StallWatch(ctx, channel);
    const key = stateKeys(ctx.prefix).outbox(channel).lease;
    this.#lease = new Lease(ctx.redis, key, `${ctx.processId}|${channel}`, DRAIN_LEASE_MS);
  }
  /** This process incarnation, as the messages it claims name it. */
  get #incarnation() {
    return this.#ctx.processId;
  }
  /**
   * After {@link stop}, over `outbox` (a connection that answers): records the message this incarnation
   * sent and Redis has not recorded, or releases a claim of this incarnation with no send under way, so
   * that no other holder waits the grace for it. False when a send is left to the grace (or Redis refused).
   */
  async handOver(outbox) {
    const sent = this.#unrecorded;
    if (sent) {
      const now = this.#now();
      await outbox.finish(this.#channel, this.#lease.owner, sent, "sent", now, this.#incarnation);
      this.#unrecorded = void 0;
      return true;
    }
    if (this.#sending) return false;
    await this.#releaseOwnClaim(outbox);
    return true;
  }
  /** Starts draining. */
  start() {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }
  /** New work was published for this channel: look now instead of at the next idle tick. */
  poke() {
    this.#woken = true;
    this.#wake?.();
  }
  /** Stops after the message in flight (waiting up to `timeoutMs`) and gives the lease up (bounded too). */
  async stop(timeoutMs) {
    this.#running = false;
    this.poke();
    const timer = new Promise((resolve) => setTimeout(resolve, timeoutMs).unref());
    await Promise.race([this.#loop, timer]);
    const bound = new Promise((resolve) => setTimeout(resolve, 1e3).unref());
    await Promise.race([this.#lease.release().catch(() => void 0), bound]);
  }
  async #run() {
    let failing = false;
    while (this.#running) {
      let waitMs = IDLE_MS;
      try {
        if (this.#unrecorded) {
          waitMs = await this.#recordSent(this.#unrecorded);
        } else if (await this.#lease.take()) {
          this.#lease.keepAlive();
          await this.#stall.check(this.#ctx.now().getTime());
          waitMs = Math.min(await this.#step(), IDLE_MS);
        } else {
          await this.#releaseOwnClaim(this.#ctx.outbox);
          waitMs = DRAIN_LEASE_MS / 2;
        }
        failing = false;
      } catch (error) {
        if (!failing)
          this.#ctx.logger.warn({ channel: this.#channel, err: error }, "deliverer cannot reach its outbox");
        failing = true;
      }
      await this.#sleep(waitMs);
    }
  }
  /**
   * A message in flight that names this incarnation while it neither sends nor remembers one (its failure
   * could not be written when the lease was lost) is released, so the lease holder tries it at once
   * instead of waiting for this live process's heartbeat to lapse.
   */
  async #releaseOwnClaim(outbox) {
    const current = await outbox.inflightRecord(this.#channel);
    if (current.state !== "ok" || current.inflight.claimedBy !== this.#incarnation) return;
    if (this.#sending || this.#unrecorded) return;
    const { claimedBy: _released, ...unclaimed } = current.inflight;
    await outbox.update(this.#channel, this.#lease.owner, unclaimed, this.#incarnation);
  }
  /** Now on Redis' clock, as of the last send state read (the host's clock moved by the offset seen). */
  #now() {
    return this.#ctx.now().getTime() + this.#offsetMs;
  }
  /** One look at the outbox: sends at most one message; returns how long to wait before the next look. */
  async #step() {
    const target = await channelTarget(this.#ctx, this.#channel);
    if (!target) return IDLE_MS;
    const { channel, sender } = target;
    const outbox = this.#ctx.outbox;
    const { pausedUntil, lastSentAt, now } = await outbox.sendState(this.#channel);
    this.#offsetMs = now - this.#ctx.now().getTime();
    const gate = Math.max(pausedUntil, lastSentAt + Math.ceil(1e3 / channel.ratePerSecond));
    if (gate > now) return gate - now;
    await this.#restoreSetAside(now);
    const current = await outbox.inflightRecord(this.#channel);
    if (current.state === "unreadable") {
      await outbox.setAsideInflight(this.#channel, this.#lease.owner, current.record.raw ?? Buffer.alloc(0));
      await this.#toldUnreadable([current.record]);
      return 0;
    }
    const inflight = this.#withProgress(current.state === "ok" ? current.inflight : null);
    if (inflight && inflight.nextAttemptAt > now) return inflight.nextAttemptAt - now;
    const { claimGrace } = this.#ctx.settings().config.delivery;
    const ours = inflight ? await this.#takeOver(current, inflight, claimGrace, now) : null;
    if (typeof ours === "number") return ours;
    const claimed = ours ?? await this.#claimNext(channel, sender, now);
    return typeof claimed === "number" ? claimed : this.#send(channel, sender, claimed);
  }
  /**
   * The message in flight as this incarnation's: at once when it claimed it, else once its claimant has
   * been silent for the grace (Redis' clock); or how long to wait before looking again.
   */
  async #takeOver(current, inflight, graceMs, now) {
    if (inflight.claimedBy === this.#incarnation) return inflight;
    if (current.state !== "ok") return 100;
    const next = { ...inflight, claimedBy: this.#incarnation, touchedAt: now };
    const taken = await this.#ctx.outbox.takeOver(this.#channel, this.#lease.owner, current, graceMs, next);
    if (taken === "taken") return next;
    return taken === "lost" ? 100 : Math.min(IDLE_MS, taken);
  }
  /** Puts back, once a minute, the records set aside as unreadable that this version reads. */
  async #restoreSetAside(now) {
    if (now - this.#restoredAt < RESTORE_EVERY_MS) return;
    this.#restoredAt = now;
    const restored = await this.#ctx.outbox.restoreReadable(this.#channel);
    if (restored > 0)
      this.#ctx.logger.info(
        { channel: this.#channel, restored },
        "records set aside as unreadable are readable now: queued again"
      );
  }
  /** Composes the next message from the ready items and claims it; or how long to wait when none. */
  async #claimNext(channel, sender, now) {
    const outbox = this.#ctx.outbox;
    const { items, nextReadyAt, unreadable } = await outbox.ready(this.#channel, now, READ_LIMIT);
    if (unreadable.length > 0) {
      await outbox.setAsideItems(this.#channel, unreadable);
      await this.#toldUnreadable(unreadable);
      if (items.length === 0) return 0;
    }
    if (items.length === 0) return nextReadyAt === null ? IDLE_MS : Math.min(IDLE_MS, nextReadyAt - now);
    const first = items[0];
    const digestEvents = first?.kind === "digest" ? await outbox.digestEvents(this.#channel, first.batchId) : [];
    const coalesce = (groups) => sender.coalesce(groups);
    const next = composeNext(this.#channel, items, coalesce, channel.ratePerSecond, digestEvents);
    if (!next) return IDLE_MS;
    const inflight = inflightOf(next, now, { claimedBy: this.#incarnation, touchedAt: now });
    const claim = await outbox.claim(this.#channel, this.#lease.owner, inflight, next.itemIds);
    return claim === "claimed" ? inflight : 100;
  }
  async #send(channel, sender, claimed) {
    const outbox = this.#ctx.outbox;
    const owner = this.#lease.owner;
    let inflight = claimed;
    const held = await this.#ctx.durability.beforeSend(this.#ctx.redis, this.#channel, inflight.message);
    if (held !== null) return held;
    await outbox.setSendState(this.#channel, { lastSentAt: this.#now() });
    this.#sending = true;
    try {
      await sender.send(inflight.message, {
        partsSent: inflight.partsSent,
        deliveryId: inflight.deliveryId,
        onPartSent: async (partsSent) => {
          inflight = { ...inflight, partsSent, touchedAt: this.#now() };
          this.#progress = { deliveryId: inflight.deliveryId, partsSent };
          await outbox.update(this.#channel, owner, inflight, this.#incarnation).catch(() => false);
        }
      });
    } catch (error) {
      this.#sending = false;
      return this.#failed(channel, inflight, error);
    }
    this.#sending = false;
    this.#unrecorded = { ...inflight, attempts: inflight.attempts + 1 };
    this.#ctx.metrics.deliveries.inc({ channel: metricChannel(this.#channel), outcome: "sent" });
    if (this.#capTold) await this.#clearCapNotice();
    return this.#recordSent(this.#unrecorded);
  }
  /**
   * Records a sent message's end; while Redis does not answer, keeps it and asks again with backoff (the
   * loop comes back here before it reads the outbox, so the message is never sent again meanwhile).
   */
  async #recordSent(sent) {
    try {
      await this.#ctx.outbox.finish(
        this.#channel,
        this.#lease.owner,
        sent,
        "sent",
        this.#now(),
        this.#incarnation
      );
    } catch (error) {
      this.#recordFailures++;
      if (this.#recordFailures === 1)
        this.#ctx.logger.warn(
          { channel: this.#channel, deliveryId: sent.deliveryId, err: error },
          "message sent but not recorded yet: Redis does not answer; it will not be sent again"
        );
      return Math.min(RECORD_RETRY_MS.max, RECORD_RETRY_MS.first * 2 ** (this.#recordFailures - 1));
    }
    this.#unrecorded = void 0;
    this.#recordFailures = 0;
    this.#progress = void 0;
    return 0;
  }
  /** Says that records were set aside: a log line each, and one notice while any are kept. */
  async #toldUnreadable(records) {
    const key = stateKeys(this.#ctx.prefix).outbox(this.#channel).unreadable;
    for (const record of records)
      this.#ctx.logger.error(
        {
          channel: this.#channel,
          item: record.id ?? "in flight",
          reason: record.reason,
          bytes: record.raw?.length ?? 0
        },
        "unreadable outbox record set aside"
      );
    await this.#ctx.notices.raise(
      `outbox-unreadable-${this.#channel}`,
      "warning",
      `Unreadable outbox records of ${this.#channel} set aside`,
      `Records this version cannot read (the first: ${records[0]?.reason ?? "unknown"}) were moved, with their exact bytes, to the Redis hash ${key}; ${this.#channel} goes on with the next message. Inspect them, then delete the hash.`
    );
  }
  /** Says that a 429's Retry-After was cut to `delivery.maxRetryAfter`: a log line and a warning notice. */
  async #toldCapped(pause, askedMs, now) {
    const capped = describeCap(askedMs, pause.waitMs);
    const until = new Date(now + pause.waitMs).toISOString();
    this.#ctx.logger.warn({ channel: this.#channel, pausedUntil: until }, `${this.#channel}: ${capped}`);
    this.#capTold = true;
    await this.#ctx.notices.raise(
      `channel-retry-after-capped-${this.#channel}`,
      "warning",
      `${this.#channel} asked for a pause longer than delivery.maxRetryAfter`,
      `${capped}: ${this.#channel} is paused until ${until}, then tried again. A receiver that keeps asking this may be refusing the channel for good: check it.`
    );
  }
  /** A message went through: a capped Retry-After's notice (this process's or another's) is over. */
  async #clearCapNotice() {
    const key = `channel-retry-after-capped-${this.#channel}`;
    const cleared = await this.#ctx.notices.clear(key, `${this.#channel} took a message again.`).then(() => true).catch(() => false);
    if (cleared) this.#capTold = false;
  }
  /** The in-flight record with the parts this process knows sent, when Redis missed an update. */
  #withProgress(inflight) {
    const known = this.#progress;
    if (!inflight || known?.deliveryId !== inflight.deliveryId) return inflight;
    return { ...inflight, partsSent: Math.max(inflight.partsSent, known.partsSent) };
  }
  /**
   * Turns a failed send into its outcome, in one place: pause on 429, retry with backoff, or park. A
   * message that was not sent is no longer this incarnation's to remember: the record written releases
   * the claim, so whoever holds the lease next tries it at once (this process may have lost the lease).
   */
  async #failed(channel, tried, error) {
    const outbox = this.#ctx.outbox;
    const now = this.#now();
    const message = error instanceof Error ? error.message : String(error);
    const outcome = isDeliveryError(error) ? error.outcome : "retry";
    const { claimedBy: _released, ...unclaimed } = tried;
    if (isDeliveryError(error) && error.outcome === "rate-limit") {
      const pause = rateLimitPause(error.retryAfterMs, this.#ctx.settings().config.delivery.maxRetryAfter);
      await outbox.setSendState(this.#channel, { pausedUntil: now + pause.waitMs });
      await outbox.update(this.#channel, this.#lease.owner, unclaimed, this.#incarnation);
      this.#ctx.metrics.deliveries.inc({ channel: metricChannel(this.#channel), outcome: "rate_limited" });
      if (pause.cappedFromMs !== null) await this.#toldCapped(pause, pause.cappedFromMs, now);
      return pause.waitMs;
    }
    const inflight = { ...unclaimed, attempts: tried.attempts + 1 };
    if (outcome === "park" || inflight.attempts >= channel.attempts) {
      await outbox.finish(
        this.#channel,
        this.#lease.owner,
        { ...inflight, lastError: message },
        "parked",
        now,
        this.#incarnation
      );
      this.#ctx.metrics.deliveries.inc({ channel: metricChannel(this.#channel), outcome: "parked" });
      this.#ctx.logger.warn(
        { channel: this.#channel, deliveryId: inflight.deliveryId, err: error },
        "delivery parked"
      );
      await this.#ctx.notices.raise(
        `channel-parked-${this.#channel}`,
        "critical",
        `Deliveries to ${this.#channel} are parked`,
        `${message}. Fix the channel, then run: shortwatch deliveries retry --all`
      );
      return 0;
    }
    const delay = backoffMs(channel.backoff, inflight.attempts);
    await outbox.update(
      this.#channel,
      this.#lease.owner,
      { ...inflight, lastError: message, nextAttemptAt: now + delay, touchedAt: now },
      this.#incarnation
    );
    this.#ctx.metrics.deliveries.inc({ channel: metricChannel(this.#channel), outcome: "retried" });
    this.#ctx.logger.warn(
      {
        channel: this.#channel,
        deliveryId: inflight.deliveryId,
        attempt: inflight.attempts,
        of: channel.attempts,
        nextTry: new Date(now + delay).toISOString(),
        cause: message
      },
      "delivery failed; tried again"
    );
    return delay;
  }
  async #sleep(ms) {
    if (this.#woken || !this.#running) {
      this.#woken = false;
      return;
    }
    await new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, ms));
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
    });
    this.#wake = void 0;
    this.#woken = false;
  }
}
function metricChannel(channel) {
  return subscriberIdOf(channel) === void 0 ? channel : "subscribers";
}
export {
  ChannelDeliverer,
  DRAIN_LEASE_MS
};
