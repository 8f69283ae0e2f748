import { isDeliveryError } from '../channels/delivery-error.js';
import type { ChannelSender, IssuerEvents } from '../channels/types.js';
import type { ChannelConfig } from '../config/schema.js';
import { subscriberIdOf } from '../routing/subscriber.js';
import { stateKeys } from '../state/keys.js';
import { Lease } from '../state/lease.js';
import type { Inflight, InflightRead, Outbox, UnreadableRecord } from '../state/outbox.js';
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
/** First and longest wait between attempts to record a sent message while Redis does not answer. */
const RECORD_RETRY_MS = { first: 100, max: 2_000 } as const;
/** How often the records set aside as unreadable are read again (a newer process may have written them). */
const RESTORE_EVERY_MS = 60_000;
/** How long a subscriber's deliverer keeps its slot while others wait for one (delivery/subscriber-slots.ts). */
const TURN_MS = 2_000;

/**
 * How a subscriber's deliverer runs: in turns, holding one of its process's few slots only while it has
 * something to send now. A turn ends when the outbox has nothing ready, when another process holds the
 * channel's lease (that one drains it), when the next send is more than a second away (a retry's backoff,
 * a pause), or after {@link TURN_MS} of sending while other channels wait. Never with a sent message
 * unrecorded or a send under way.
 */
export interface DelivererTurn {
  /** Whether other channels wait for a slot. */
  contended(): boolean;
  /** The turn ended and the lease was given up: `again` when work is left now, `afterMs` when later. */
  ended(outcome: { again: boolean; afterMs?: number }): void;
}

/**
 * Drains one channel's outbox in order, in whichever process holds the channel's lease: one sender per
 * channel across the deployment, so the channel's rate is kept and messages never overtake each other.
 * A message is claimed (moved to in-flight, naming this process incarnation) before it is sent and
 * finished only after the send succeeded. What this incarnation sent is kept in memory until Redis has
 * recorded it, whoever holds the lease meanwhile: the finish accepts the claimant, and another holder
 * leaves a claimed message alone until the claimant's delivery path has been silent for
 * `delivery.claimGrace` by Redis' clock. So a Redis outage shorter than the grace delays the record and
 * repeats nothing; a process that dies inside a send has its message sent again, under the same
 * delivery id, once the grace has passed. Every time the deliverer stamps or compares is Redis' (the
 * offset read with the send state), never the host's.
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
  /** Whether a send is under way: its message may be accepted any moment, so its claim must stay. */
  #sending = false;
  /** Failed attempts to record {@link #unrecorded}, for the backoff. */
  #recordFailures = 0;
  /** Parts of a split message known sent, kept here too in case Redis missed the update. */
  #progress: { deliveryId: string; partsSent: number } | undefined;
  readonly #stall: StallWatch;
  /** Whether a capped Retry-After's notice may be active: cleared at the next message sent. */
  #capTold = true;
  /** Redis' time minus the host's, as of the last look: every stamp and comparison is on Redis' clock. */
  #offsetMs = 0;
  /** Redis' time of the last look at the records set aside as unreadable. */
  #restoredAt = Number.NEGATIVE_INFINITY;
  /** Present for a subscriber's channel: the deliverer runs in turns. */
  readonly #turn: DelivererTurn | undefined;
  /** What the last look found: nothing ready to send, or the channel's lease held by another process. */
  #found: 'work' | 'nothing' | 'lease-elsewhere' = 'work';

  constructor(ctx: DeliveryParts, channel: string, turn?: DelivererTurn) {
    this.#ctx = ctx;
    this.#channel = channel;
    this.#turn = turn;
    this.#stall = new StallWatch(ctx, channel);
    const key = stateKeys(ctx.prefix).outbox(channel).lease;
    this.#lease = new Lease(ctx.redis, key, `${ctx.processId}|${channel}`, DRAIN_LEASE_MS);
  }

  /** This process incarnation, as the messages it claims name it. */
  get #incarnation(): string {
    return this.#ctx.processId;
  }

  /**
   * After {@link stop}, over `outbox` (a connection that answers): records the message this incarnation
   * sent and Redis has not recorded, or releases a claim of this incarnation with no send under way, so
   * that no other holder waits the grace for it. False when a send is left to the grace (or Redis refused).
   */
  async handOver(outbox: Outbox): Promise<boolean> {
    const sent = this.#unrecorded;
    if (sent) {
      const now = this.#now();
      await outbox.finish(this.#channel, this.#lease.owner, sent, 'sent', now, this.#incarnation);
      this.#unrecorded = undefined;
      return true;
    }
    if (this.#sending) return false;
    await this.#releaseOwnClaim(outbox);
    return true;
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

  /** Stops after the message in flight (waiting up to `timeoutMs`) and gives the lease up (bounded too). */
  async stop(timeoutMs: number): Promise<void> {
    this.#running = false;
    this.poke();
    const timer = new Promise((resolve) => setTimeout(resolve, timeoutMs).unref());
    await Promise.race([this.#loop, timer]);
    const bound = new Promise((resolve) => setTimeout(resolve, 1_000).unref());
    await Promise.race([this.#lease.release().catch(() => undefined), bound]);
  }

  async #run(): Promise<void> {
    let failing = false;
    const turnStartedAt = this.#ctx.now().getTime();
    while (this.#running) {
      let waitMs = IDLE_MS;
      /** The wait the look asked for before the second's bound: a turn ends on a long one. */
      let askedMs = IDLE_MS;
      this.#found = 'work';
      try {
        if (this.#unrecorded) {
          // Recorded whoever holds the lease now: no other holder sends a live claimant's message.
          waitMs = await this.#recordSent(this.#unrecorded);
        } else if (await this.#lease.take()) {
          this.#lease.keepAlive();
          await this.#stall.check(this.#ctx.now().getTime());
          askedMs = await this.#step();
          // Back within a second however long the wait: the stall watch looks while a channel is paused.
          waitMs = Math.min(askedMs, IDLE_MS);
        } else {
          await this.#releaseOwnClaim(this.#ctx.outbox);
          this.#found = 'lease-elsewhere';
          waitMs = DRAIN_LEASE_MS / 2;
        }
        failing = false;
      } catch (error) {
        // Redis trouble: said once per episode, then retried quietly.
        if (!failing)
          this.#ctx.logger.warn({ channel: this.#channel, err: error }, 'deliverer cannot reach its outbox');
        failing = true;
      }
      const turnMs = this.#ctx.now().getTime() - turnStartedAt;
      const end = failing ? undefined : this.#turnEnd(askedMs, turnMs);
      if (end) return this.#endTurn(end);
      await this.#sleep(waitMs);
    }
  }

  /** Whether a subscriber's turn is over after a look that asks to wait `waitMs`, and how it ends. */
  #turnEnd(waitMs: number, turnMs: number): { again: boolean; afterMs?: number } | undefined {
    if (!this.#turn || this.#woken || this.#unrecorded || this.#sending) return undefined;
    if (this.#found !== 'work') return { again: false };
    if (waitMs > IDLE_MS) return { again: false, afterMs: waitMs };
    return turnMs >= TURN_MS && this.#turn.contended() ? { again: true } : undefined;
  }

  /** Gives the lease up, then the slot: work published meanwhile (a poke) queues the channel again. */
  async #endTurn(end: { again: boolean; afterMs?: number }): Promise<void> {
    this.#running = false;
    const bound = new Promise((resolve) => setTimeout(resolve, 1_000).unref());
    await Promise.race([this.#lease.release().catch(() => undefined), bound]);
    this.#turn?.ended({ ...end, again: end.again || this.#woken });
  }

  /**
   * A message in flight that names this incarnation while it neither sends nor remembers one (its failure
   * could not be written when the lease was lost) is released, so the lease holder tries it at once
   * instead of waiting for this live process's heartbeat to lapse.
   */
  async #releaseOwnClaim(outbox: Outbox): Promise<void> {
    const current = await outbox.inflightRecord(this.#channel);
    if (current.state !== 'ok' || current.inflight.claimedBy !== this.#incarnation) return;
    if (this.#sending || this.#unrecorded) return;
    const { claimedBy: _released, ...unclaimed } = current.inflight;
    await outbox.update(this.#channel, this.#lease.owner, unclaimed, this.#incarnation);
  }

  /** Now on Redis' clock, as of the last send state read (the host's clock moved by the offset seen). */
  #now(): number {
    return this.#ctx.now().getTime() + this.#offsetMs;
  }

  /** One look at the outbox: sends at most one message; returns how long to wait before the next look. */
  async #step(): Promise<number> {
    const target = await channelTarget(this.#ctx, this.#channel);
    if (!target) {
      this.#found = 'nothing';
      return IDLE_MS;
    }
    const { channel, sender } = target;
    const outbox = this.#ctx.outbox;
    const { pausedUntil, lastSentAt, now } = await outbox.sendState(this.#channel);
    this.#offsetMs = now - this.#ctx.now().getTime();
    const gate = Math.max(pausedUntil, lastSentAt + Math.ceil(1_000 / channel.ratePerSecond));
    if (gate > now) return gate - now;
    await this.#restoreSetAside(now);
    const current = await outbox.inflightRecord(this.#channel);
    if (current.state === 'unreadable') {
      await outbox.setAsideInflight(this.#channel, this.#lease.owner, current.record.raw ?? Buffer.alloc(0));
      await this.#toldUnreadable([current.record]);
      return 0;
    }
    const inflight = this.#withProgress(current.state === 'ok' ? current.inflight : null);
    if (inflight && inflight.nextAttemptAt > now) return inflight.nextAttemptAt - now;
    const { claimGrace } = this.#ctx.settings().config.delivery;
    const ours = inflight ? await this.#takeOver(current, inflight, claimGrace, now) : null;
    if (typeof ours === 'number') return ours;
    const claimed = ours ?? (await this.#claimNext(channel, sender, now));
    return typeof claimed === 'number' ? claimed : this.#send(channel, sender, claimed);
  }

  /**
   * The message in flight as this incarnation's: at once when it claimed it, else once its claimant has
   * been silent for the grace (Redis' clock); or how long to wait before looking again.
   */
  async #takeOver(current: InflightRead, inflight: Inflight, graceMs: number, now: number) {
    if (inflight.claimedBy === this.#incarnation) return inflight;
    if (current.state !== 'ok') return 100;
    const next = { ...inflight, claimedBy: this.#incarnation, touchedAt: now };
    const taken = await this.#ctx.outbox.takeOver(this.#channel, this.#lease.owner, current, graceMs, next);
    if (taken === 'taken') return next;
    // The whole wait (the loop looks again within a second): a subscriber's turn ends on a long one
    // instead of holding a slot for the grace.
    return taken === 'lost' ? 100 : taken;
  }

  /** Puts back, once a minute, the records set aside as unreadable that this version reads. */
  async #restoreSetAside(now: number): Promise<void> {
    if (now - this.#restoredAt < RESTORE_EVERY_MS) return;
    this.#restoredAt = now;
    const restored = await this.#ctx.outbox.restoreReadable(this.#channel);
    if (restored > 0)
      this.#ctx.logger.info(
        { channel: this.#channel, restored },
        'records set aside as unreadable are readable now: queued again',
      );
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
    if (items.length === 0) {
      if (nextReadyAt === null) this.#found = 'nothing';
      return nextReadyAt === null ? IDLE_MS : nextReadyAt - now;
    }
    const first = items[0];
    const digestEvents =
      first?.kind === 'digest' ? await outbox.digestEvents(this.#channel, first.batchId) : [];
    const coalesce = (groups: readonly IssuerEvents[]) => sender.coalesce(groups);
    const next = composeNext(this.#channel, items, coalesce, channel.ratePerSecond, digestEvents);
    if (!next) return IDLE_MS;
    const inflight = inflightOf(next, now, { claimedBy: this.#incarnation, touchedAt: now });
    const claim = await outbox.claim(this.#channel, this.#lease.owner, inflight, next.itemIds);
    return claim === 'claimed' ? inflight : 100;
  }

  async #send(channel: ChannelConfig, sender: ChannelSender, claimed: Inflight): Promise<number> {
    const outbox = this.#ctx.outbox;
    const owner = this.#lease.owner;
    let inflight = claimed;
    // Issue 30: tell only what a replica holds (state/durability.ts). The mark raised here, on the
    // connection of the claim, follows the events' commit, the claim and the last message's finish; a
    // `WAIT` for it confirms them all. Not durable yet, or the state went back: look again later.
    const held = await this.#ctx.durability.beforeSend(this.#ctx.redis, this.#channel, inflight.message);
    if (held !== null) return held;
    // The rate spaces message starts; recorded before the send so that a crash keeps the spacing too.
    await outbox.setSendState(this.#channel, { lastSentAt: this.#now() });
    this.#sending = true;
    try {
      await sender.send(inflight.message, {
        partsSent: inflight.partsSent,
        deliveryId: inflight.deliveryId,
        onPartSent: async (partsSent) => {
          inflight = { ...inflight, partsSent, touchedAt: this.#now() };
          this.#progress = { deliveryId: inflight.deliveryId, partsSent };
          // A part was accepted: a Redis error here must not fail the send (and have the part sent
          // again); the memory above carries the count until a later update or the finish records it.
          // Not awaited: on a frozen connection it never answers, and the send would stay "under way"
          // for ever, so that the hand-over at exit left it to the grace and it was sent again (the
          // chaos rounds). Later commands on the connection run after it, in order.
          void outbox.update(this.#channel, owner, inflight, this.#incarnation).catch(() => false);
        },
      });
    } catch (error) {
      this.#sending = false;
      return this.#failed(channel, inflight, error);
    }
    this.#sending = false;
    this.#unrecorded = { ...inflight, attempts: inflight.attempts + 1 };
    this.#ctx.metrics.deliveries.inc({ channel: metricChannel(this.#channel), outcome: 'sent' });
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
        this.#now(),
        this.#incarnation,
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

  /** The in-flight record with the parts this process knows sent, when Redis missed an update. */
  #withProgress(inflight: Inflight | null): Inflight | null {
    const known = this.#progress;
    if (!inflight || known?.deliveryId !== inflight.deliveryId) return inflight;
    return { ...inflight, partsSent: Math.max(inflight.partsSent, known.partsSent) };
  }

  /**
   * Turns a failed send into its outcome, in one place: pause on 429, retry with backoff, or park. A
   * message that was not sent is no longer this incarnation's to remember: the record written releases
   * the claim, so whoever holds the lease next tries it at once (this process may have lost the lease).
   */
  async #failed(channel: ChannelConfig, tried: Inflight, error: unknown): Promise<number> {
    const outbox = this.#ctx.outbox;
    const now = this.#now();
    const message = error instanceof Error ? error.message : String(error);
    const outcome = isDeliveryError(error) ? error.outcome : 'retry';
    const { claimedBy: _released, ...unclaimed } = tried;
    if (isDeliveryError(error) && error.outcome === 'rate-limit') {
      // The attempt is not charged: the channel waits for what the receiver asked, up to the cap.
      const pause = rateLimitPause(error.retryAfterMs, this.#ctx.settings().config.delivery.maxRetryAfter);
      await outbox.setSendState(this.#channel, { pausedUntil: now + pause.waitMs });
      await outbox.update(this.#channel, this.#lease.owner, unclaimed, this.#incarnation);
      this.#ctx.metrics.deliveries.inc({ channel: metricChannel(this.#channel), outcome: 'rate_limited' });
      if (pause.cappedFromMs !== null) await this.#toldCapped(pause, pause.cappedFromMs, now);
      return pause.waitMs;
    }
    const inflight = { ...unclaimed, attempts: tried.attempts + 1 };
    if (outcome === 'park' || inflight.attempts >= channel.attempts) {
      await outbox.finish(
        this.#channel,
        this.#lease.owner,
        { ...inflight, lastError: message },
        'parked',
        now,
        this.#incarnation,
      );
      this.#ctx.metrics.deliveries.inc({ channel: metricChannel(this.#channel), outcome: 'parked' });
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
    await outbox.update(
      this.#channel,
      this.#lease.owner,
      { ...inflight, lastError: message, nextAttemptAt: now + delay, touchedAt: now },
      this.#incarnation,
    );
    this.#ctx.metrics.deliveries.inc({ channel: metricChannel(this.#channel), outcome: 'retried' });
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

/**
 * A channel as the delivery counter labels it: every subscriber's channel counts under one `subscribers`
 * label, so 2,000 subscribers add no 2,000 series to a scrape (what each received is in the record).
 */
function metricChannel(channel: string): string {
  return subscriberIdOf(channel) === undefined ? channel : 'subscribers';
}
