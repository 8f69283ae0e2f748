import { isDeliveryError } from '../channels/delivery-error.js';
import type { ChannelSender, IssuerEvents } from '../channels/types.js';
import type { ChannelConfig } from '../config/schema.js';
import type { JobContext } from '../jobs/context.js';
import { stateKeys } from '../state/keys.js';
import { Lease } from '../state/lease.js';
import type { Inflight } from '../state/outbox.js';
import { backoffMs } from './backoff.js';
import { composeNext } from './compose.js';

/** How long a drain lease lives unrenewed: a dead holder's channel is taken over within this. */
export const DRAIN_LEASE_MS = 6_000;
/** Longest sleep between looks at the outbox when nothing wakes the deliverer. */
const IDLE_MS = 1_000;
/** Items read per look; a backlog larger than this drains over several messages anyway. */
const READ_LIMIT = 2_000;

/**
 * Drains one channel's outbox in order, in whichever process holds the channel's lease: one sender per
 * channel across the deployment, so the channel's rate is kept and messages never overtake each other.
 * A message is claimed (moved to in-flight) before it is sent and finished only after the send
 * succeeded, so a crash in between re-sends that one message, under the same delivery id.
 */
export class ChannelDeliverer {
  readonly #ctx: JobContext;
  readonly #channel: string;
  readonly #lease: Lease;
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #woken = false;

  constructor(ctx: JobContext, channel: string) {
    this.#ctx = ctx;
    this.#channel = channel;
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
          waitMs = await this.#step();
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
    const { config, senders } = this.#ctx.settings();
    const channel = config.channels.find((c) => c.name === this.#channel);
    const sender = senders.get(this.#channel);
    if (!channel || !sender) return IDLE_MS;
    const outbox = this.#ctx.outbox;
    const now = this.#ctx.now().getTime();
    const { pausedUntil, lastSentAt } = await outbox.sendState(this.#channel);
    const gate = Math.max(pausedUntil, lastSentAt + Math.ceil(1_000 / channel.ratePerSecond));
    if (gate > now) return gate - now;
    let inflight = await outbox.inflight(this.#channel);
    if (inflight && inflight.nextAttemptAt > now) return inflight.nextAttemptAt - now;
    if (!inflight) {
      const { items, nextReadyAt } = await outbox.ready(this.#channel, now, READ_LIMIT);
      if (items.length === 0) return nextReadyAt === null ? IDLE_MS : Math.min(IDLE_MS, nextReadyAt - now);
      const first = items[0];
      const digestEvents =
        first?.kind === 'digest' ? await outbox.digestEvents(this.#channel, first.batchId) : [];
      const coalesce = (groups: readonly IssuerEvents[]) => sender.coalesce(groups);
      const next = composeNext(this.#channel, items, coalesce, channel.ratePerSecond, digestEvents);
      if (!next) return IDLE_MS;
      inflight = {
        deliveryId: next.deliveryId,
        message: next.message,
        eventIds: next.eventIds,
        attempts: 0,
        partsSent: 0,
        nextAttemptAt: now,
        claimedAt: now,
        ...(next.digestBatch ? { digestBatch: next.digestBatch } : {}),
      };
      if ((await outbox.claim(this.#channel, this.#lease.owner, inflight, next.itemIds)) !== 'claimed')
        return 100;
    }
    return this.#send(channel, sender, inflight);
  }

  async #send(channel: ChannelConfig, sender: ChannelSender, claimed: Inflight): Promise<number> {
    const outbox = this.#ctx.outbox;
    const owner = this.#lease.owner;
    let inflight = claimed;
    // The rate spaces message starts; recorded before the send so that a crash keeps the spacing too.
    await outbox.setSendState(this.#channel, { lastSentAt: this.#ctx.now().getTime() });
    try {
      await sender.send(inflight.message, {
        partsSent: inflight.partsSent,
        deliveryId: inflight.deliveryId,
        onPartSent: async (partsSent) => {
          inflight = { ...inflight, partsSent };
          await outbox.update(this.#channel, owner, inflight);
        },
      });
    } catch (error) {
      return this.#failed(channel, { ...inflight, attempts: inflight.attempts + 1 }, error);
    }
    const now = this.#ctx.now().getTime();
    await outbox.finish(this.#channel, owner, { ...inflight, attempts: inflight.attempts + 1 }, 'sent', now);
    this.#ctx.metrics.deliveries.inc({ channel: this.#channel, outcome: 'sent' });
    return 0;
  }

  /** Turns a failed send into its outcome, in one place: pause on 429, retry with backoff, or park. */
  async #failed(channel: ChannelConfig, inflight: Inflight, error: unknown): Promise<number> {
    const outbox = this.#ctx.outbox;
    const now = this.#ctx.now().getTime();
    const message = error instanceof Error ? error.message : String(error);
    const outcome = isDeliveryError(error) ? error.outcome : 'retry';
    if (isDeliveryError(error) && error.outcome === 'rate-limit') {
      // The attempt is not charged: the channel waits for what the receiver asked.
      const wait = error.retryAfterMs ?? 1_000;
      await outbox.setSendState(this.#channel, { pausedUntil: now + wait });
      this.#ctx.metrics.deliveries.inc({ channel: this.#channel, outcome: 'rate_limited' });
      return wait;
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
