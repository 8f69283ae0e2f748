import { isDeliveryError } from '../channels/delivery-error.js';
import type { ChannelSender, IssuerEvents } from '../channels/types.js';
import type { ChannelConfig } from '../config/schema.js';
import { stateKeys } from '../state/keys.js';
import { Lease } from '../state/lease.js';
import type { Inflight, UnreadableRecord } from '../state/outbox.js';
import { backoffMs } from './backoff.js';
import { channelTarget } from './channel-target.js';
import { composeNext, inflightOf } from './compose.js';
import type { DeliveryParts } from './parts.js';
import { describeCap, type RateLimitPause, rateLimitPause } from './retry-after-cap.js';
import { StallWatch } from './stall-watch.js';

/** How long a drain lease lives unrenewed: a dead holder's channel is taken over within this. */
export const DRAIN_LEASE_MS = 6_000;
/** Longest sleep between looks at the outbox when nothing wakes the deliverer. */
const IDLE_MS = 1_000;
/** Items read per look; a backlog larger than this drains over several messages anyway. */
const READ_LIMIT = 2_000;
/**
 * How long a lease holder leaves a message another process claimed and last touched: a claimant that
 * lost its lease to a Redis outage records its send within this once Redis answers, so only a dead
 * claimant's message is sent again (twice the lease: well past the reconnect and the record's backoff).
 */
const CLAIM_GRACE_MS = 2 * DRAIN_LEASE_MS;
/** First and longest wait between attempts to record a sent message while Redis does not answer. */
const RECORD_RETRY_MS = { first: 100, max: 2_000 } as const;

/**
 * Drains one channel's outbox in order, in whichever process holds the channel's lease: one sender per
 * channel across the deployment, so the channel's rate is kept and messages never overtake each other.
 * A message is claimed (moved to in-flight) before it is sent and finished only after the send
 * succeeded, so a crash in between re-sends that one message, under the same delivery id. While the
 * process lives, what it sent is kept in memory until Redis has recorded it: a Redis outage after a send
 * delays the record, never repeats the send.
 */
export class ChannelDeliverer {
  readonly #ctx: DeliveryParts;
  readonly #channel: string;
  readonly #lease: Lease;
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #woken = false;
  /** A message the receiver accepted whose end Redis has not recorded yet: finished before anything else. */
  #unrecorded: Inflight | undefined;
  /** Failed attempts to record {@link #unrecorded}, for the backoff. */
  #recordFailures = 0;
  /** Parts of a split message known sent, kept here too in case Redis missed the update. */
  #progress: { deliveryId: string; partsSent: number } | undefined;
  readonly #stall: StallWatch;
  /** Whether a capped Retry-After's notice may be active: cleared at the next message sent. */
  #capTold = true;

  constructor(ctx: DeliveryParts, channel: string) {
    this.#ctx = ctx;
    this.#channel = channel;
    this.#stall = new StallWatch(ctx, channel);
    const key = stateKeys(ctx.prefix).outbox(channel).lease;
    this.#lease = new Lease(ctx.redis, key, `${ctx.processId}|${channel}`, DRAIN_LEASE_MS);
  }

  /** Starts draining. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** New work was published for this channel: look now instead of at the next idle tick. */
  poke(): void {
    this.#woken = true;
    this.#wake?.();
  }

  /** Stops after the message in flight (waiting up to `timeoutMs`) and gives the lease up. */
  async stop(timeoutMs: number): Promise<void> {
    this.#running = false;
    this.poke();
    const timer = new Promise((resolve) => setTimeout(resolve, timeoutMs).unref());
    await Promise.race([this.#loop, timer]);
    await this.#lease.release().catch(() => undefined);
  }

  async #run(): Promise<void> {
    let failing = false;
    while (this.#running) {
      let waitMs = IDLE_MS;
      try {
        if (await this.#lease.take()) {
          this.#lease.keepAlive();
          await this.#stall.check(this.#ctx.now().getTime());
          // Back within a second however long the wait: the stall watch looks while a channel is paused.
          waitMs = Math.min(await this.#step(), IDLE_MS);
        } else {
          waitMs = DRAIN_LEASE_MS / 2;
        }
        failing = false;
      } catch (error) {
        // Redis trouble: said once per episode, then retried quietly.
        if (!failing)
          this.#ctx.logger.warn({ channel: this.#channel, err: error }, 'deliverer cannot reach its outbox');
        failing = true;
      }
      await this.#sleep(waitMs);
    }
  }

  /** One look at the outbox: sends at most one message; returns how long to wait before the next look. */
  async #step(): Promise<number> {
    if (this.#unrecorded) return this.#recordSent(this.#unrecorded);
    const target = await channelTarget(this.#ctx, this.#channel);
    if (!target) return IDLE_MS;
    const { channel, sender } = target;
    const outbox = this.#ctx.outbox;
    const now = this.#ctx.now().getTime();
    const { pausedUntil, lastSentAt } = await outbox.sendState(this.#channel);
    const gate = Math.max(pausedUntil, lastSentAt + Math.ceil(1_000 / channel.ratePerSecond));
    if (gate > now) return gate - now;
    const current = await outbox.inflightRecord(this.#channel);
    if (current.state === 'unreadable') {
      await outbox.setAsideInflight(this.#channel, this.#lease.owner, current.record.raw ?? Buffer.alloc(0));
      await this.#toldUnreadable([current.record]);
      return 0;
    }
    const inflight = this.#withProgress(current.state === 'ok' ? current.inflight : null);
    if (inflight && inflight.nextAttemptAt > now) return inflight.nextAttemptAt - now;
    const grace = inflight ? this.#claimantGrace(inflight, now) : 0;
    if (grace > 0) return grace;
    const claimed = inflight ?? (await this.#claimNext(channel, sender, now));
    return typeof claimed === 'number' ? claimed : this.#send(channel, sender, claimed);
  }

  /** Composes the next message from the ready items and claims it; or how long to wait when none. */
  async #claimNext(channel: ChannelConfig, sender: ChannelSender, now: number): Promise<Inflight | number> {
    const outbox = this.#ctx.outbox;
    const { items, nextReadyAt, unreadable } = await outbox.ready(this.#channel, now, READ_LIMIT);
    if (unreadable.length > 0) {
      await outbox.setAsideItems(this.#channel, unreadable);
      await this.#toldUnreadable(unreadable);
      if (items.length === 0) return 0;
    }
    if (items.length === 0) return nextReadyAt === null ? IDLE_MS : Math.min(IDLE_MS, nextReadyAt - now);
    const first = items[0];
    const digestEvents =
      first?.kind === 'digest' ? await outbox.digestEvents(this.#channel, first.batchId) : [];
    const coalesce = (groups: readonly IssuerEvents[]) => sender.coalesce(groups);
    const next = composeNext(this.#channel, items, coalesce, channel.ratePerSecond, digestEvents);
    if (!next) return IDLE_MS;
    const inflight = inflightOf(next, now, { claimedBy: this.#lease.owner, touchedAt: now });
    const claim = await outbox.claim(this.#channel, this.#lease.owner, inflight, next.itemIds);
    return claim === 'claimed' ? inflight : 100;
  }

  async #send(channel: ChannelConfig, sender: ChannelSender, claimed: Inflight): Promise<number> {
    const outbox = this.#ctx.outbox;
    const owner = this.#lease.owner;
    let inflight = claimed;
    if (claimed.claimedBy !== owner) {
      // Taken over from a claimant that went silent: this process is its sender from now on.
      inflight = { ...claimed, claimedBy: owner, touchedAt: this.#ctx.now().getTime() };
      if (!(await outbox.update(this.#channel, owner, inflight))) return 100;
    }
    // Issue 30: tell only what a replica holds (state/durability.ts). The mark raised here, on the
    // connection of the claim, follows the events' commit, the claim and the last message's finish; a
    // `WAIT` for it confirms them all. Not durable yet, or the state went back: look again later.
    const held = await this.#ctx.durability.beforeSend(this.#ctx.redis, this.#channel, inflight.message);
    if (held !== null) return held;
    // The rate spaces message starts; recorded before the send so that a crash keeps the spacing too.
    await outbox.setSendState(this.#channel, { lastSentAt: this.#ctx.now().getTime() });
    try {
      await sender.send(inflight.message, {
        partsSent: inflight.partsSent,
        deliveryId: inflight.deliveryId,
        onPartSent: async (partsSent) => {
          inflight = { ...inflight, partsSent, touchedAt: this.#ctx.now().getTime() };
          this.#progress = { deliveryId: inflight.deliveryId, partsSent };
          // A part was accepted: a Redis error here must not fail the send (and have the part sent
          // again); the memory above carries the count until a later update or the finish records it.
          await outbox.update(this.#channel, owner, inflight).catch(() => false);
        },
      });
    } catch (error) {
      return this.#failed(channel, { ...inflight, attempts: inflight.attempts + 1 }, error);
    }
    this.#unrecorded = { ...inflight, attempts: inflight.attempts + 1 };
    this.#ctx.metrics.deliveries.inc({ channel: this.#channel, outcome: 'sent' });
    if (this.#capTold) await this.#clearCapNotice();
    return this.#recordSent(this.#unrecorded);
  }

  /**
   * Records a sent message's end; while Redis does not answer, keeps it and asks again with backoff (the
   * loop comes back here before it reads the outbox, so the message is never sent again meanwhile).
   */
  async #recordSent(sent: Inflight): Promise<number> {
    try {
      // False when the record is gone already (an earlier attempt landed but its reply was lost).
      await this.#ctx.outbox.finish(
        this.#channel,
        this.#lease.owner,
        sent,
        'sent',
        this.#ctx.now().getTime(),
      );
    } catch (error) {
      this.#recordFailures++;
      if (this.#recordFailures === 1)
        this.#ctx.logger.warn(
          { channel: this.#channel, deliveryId: sent.deliveryId, err: error },
          'message sent but not recorded yet: Redis does not answer; it will not be sent again',
        );
      return Math.min(RECORD_RETRY_MS.max, RECORD_RETRY_MS.first * 2 ** (this.#recordFailures - 1));
    }
    this.#unrecorded = undefined;
    this.#recordFailures = 0;
    this.#progress = undefined;
    return 0;
  }

  /** Says that records were set aside: a log line each, and one notice while any are kept. */
  async #toldUnreadable(records: readonly UnreadableRecord[]): Promise<void> {
    const key = stateKeys(this.#ctx.prefix).outbox(this.#channel).unreadable;
    for (const record of records)
      this.#ctx.logger.error(
        {
          channel: this.#channel,
          item: record.id ?? 'in flight',
          reason: record.reason,
          bytes: record.raw?.length ?? 0,
        },
        'unreadable outbox record set aside',
      );
    await this.#ctx.notices.raise(
      `outbox-unreadable-${this.#channel}`,
      'warning',
      `Unreadable outbox records of ${this.#channel} set aside`,
      `Records this version cannot read (the first: ${records[0]?.reason ?? 'unknown'}) were moved, with their exact bytes, to the Redis hash ${key}; ${this.#channel} goes on with the next message. Inspect them, then delete the hash.`,
    );
  }

  /** Says that a 429's Retry-After was cut to `delivery.maxRetryAfter`: a log line and a warning notice. */
  async #toldCapped(pause: RateLimitPause, askedMs: number, now: number): Promise<void> {
    const capped = describeCap(askedMs, pause.waitMs);
    const until = new Date(now + pause.waitMs).toISOString();
    this.#ctx.logger.warn({ channel: this.#channel, pausedUntil: until }, `${this.#channel}: ${capped}`);
    this.#capTold = true;
    await this.#ctx.notices.raise(
      `channel-retry-after-capped-${this.#channel}`,
      'warning',
      `${this.#channel} asked for a pause longer than delivery.maxRetryAfter`,
      `${capped}: ${this.#channel} is paused until ${until}, then tried again. A receiver that keeps asking this may be refusing the channel for good: check it.`,
    );
  }

  /** A message went through: a capped Retry-After's notice (this process's or another's) is over. */
  async #clearCapNotice(): Promise<void> {
    const key = `channel-retry-after-capped-${this.#channel}`;
    // Sent is sent: a Redis error here is for the next message sent to clear it.
    const cleared = await this.#ctx.notices
      .clear(key, `${this.#channel} took a message again.`)
      .then(() => true)
      .catch(() => false);
    if (cleared) this.#capTold = false;
  }

  /** How long to leave a message another process claimed and touched lately (0: this one may send it). */
  #claimantGrace(inflight: Inflight, now: number): number {
    if (inflight.claimedBy === undefined || inflight.claimedBy === this.#lease.owner) return 0;
    const until = (inflight.touchedAt ?? 0) + CLAIM_GRACE_MS;
    return until > now ? Math.min(IDLE_MS, until - now) : 0;
  }

  /** The in-flight record with the parts this process knows sent, when Redis missed an update. */
  #withProgress(inflight: Inflight | null): Inflight | null {
    const known = this.#progress;
    if (!inflight || known?.deliveryId !== inflight.deliveryId) return inflight;
    return { ...inflight, partsSent: Math.max(inflight.partsSent, known.partsSent) };
  }

  /** Turns a failed send into its outcome, in one place: pause on 429, retry with backoff, or park. */
  async #failed(channel: ChannelConfig, inflight: Inflight, error: unknown): Promise<number> {
    const outbox = this.#ctx.outbox;
    const now = this.#ctx.now().getTime();
    const message = error instanceof Error ? error.message : String(error);
    const outcome = isDeliveryError(error) ? error.outcome : 'retry';
    if (isDeliveryError(error) && error.outcome === 'rate-limit') {
      // The attempt is not charged: the channel waits for what the receiver asked, up to the cap.
      const pause = rateLimitPause(error.retryAfterMs, this.#ctx.settings().config.delivery.maxRetryAfter);
      await outbox.setSendState(this.#channel, { pausedUntil: now + pause.waitMs });
      this.#ctx.metrics.deliveries.inc({ channel: this.#channel, outcome: 'rate_limited' });
      if (pause.cappedFromMs !== null) await this.#toldCapped(pause, pause.cappedFromMs, now);
      return pause.waitMs;
    }
    if (outcome === 'park' || inflight.attempts >= channel.attempts) {
      await outbox.finish(
        this.#channel,
        this.#lease.owner,
        { ...inflight, lastError: message },
        'parked',
        now,
      );
      this.#ctx.metrics.deliveries.inc({ channel: this.#channel, outcome: 'parked' });
      this.#ctx.logger.warn(
        { channel: this.#channel, deliveryId: inflight.deliveryId, err: error },
        'delivery parked',
      );
      await this.#ctx.notices.raise(
        `channel-parked-${this.#channel}`,
        'critical',
        `Deliveries to ${this.#channel} are parked`,
        `${message}. Fix the channel, then run: shortwatch deliveries retry --all`,
      );
      return 0;
    }
    const delay = backoffMs(channel.backoff, inflight.attempts);
    await outbox.update(this.#channel, this.#lease.owner, {
      ...inflight,
      lastError: message,
      nextAttemptAt: now + delay,
      touchedAt: now,
    });
    this.#ctx.metrics.deliveries.inc({ channel: this.#channel, outcome: 'retried' });
    // A routine failure (a 5xx, a timeout) is one line: cause, channel, next try.
    this.#ctx.logger.warn(
      {
        channel: this.#channel,
        deliveryId: inflight.deliveryId,
        attempt: inflight.attempts,
        of: channel.attempts,
        nextTry: new Date(now + delay).toISOString(),
        cause: message,
      },
      'delivery failed; tried again',
    );
    return delay;
  }

  async #sleep(ms: number): Promise<void> {
    if (this.#woken || !this.#running) {
      this.#woken = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.max(0, ms));
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
    });
    this.#wake = undefined;
    this.#woken = false;
  }
}
