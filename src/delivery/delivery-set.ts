import type { ChannelConfig } from '../config/schema.js';
import { subscriberIdOf } from '../routing/subscriber.js';
import { Outbox } from '../state/outbox.js';
import type { RedisClient } from '../state/redis-connection.js';
import { SenderBeats } from '../state/sender-beats.js';
import { ChannelDeliverer } from './deliverer.js';
import type { DeliveryParts } from './parts.js';
import { lookAtSubscriberOutboxes } from './subscriber-outboxes.js';
import { SubscriberSlots } from './subscriber-slots.js';

/** How often each process looks for subscribers' outboxes with work that no wake-up reached it for. */
const SUBSCRIBER_LOOK_MS = 30_000;
/** How often the delivery path says it is alive: far inside any claim grace. */
const BEAT_MS = 1_000;
/** Every this many beats, incarnations silent for a day are forgotten. */
const SWEEP_EVERY_BEATS = 600;
/** Subscribers' deliverers a process runs at once without a `subscribers` section (none start then). */
const NO_SUBSCRIBER_SLOTS = 1;

/** Wake-up messages starting with this are liveness probes (channel names cannot hold a `:`). */
export const WAKE_PROBE_PREFIX = 'probe:';

/** What the wake-up probes of one process start with: `probe:<process id>:`, then their number. */
export function wakeProbePrefix(processId: string): string {
  return `${WAKE_PROBE_PREFIX}${processId}:`;
}

/**
 * The deliverers of one process, one per configured channel, woken through Redis pub/sub whenever a
 * commit, a notice or a digest seal adds work (the deliverers also look once a second on their own).
 * `ctx.redis` is the delivery path's own connection: it carries the incarnation's heartbeat (so a wedged
 * path stops beating), and src/ops/delivery-liveness.ts proves it and the subscriber answer; a stuck one
 * makes the process exit, after {@link close} handed what was sent over a new connection.
 */
export class DeliverySet {
  readonly #ctx: DeliveryParts;
  readonly #subscriber: RedisClient;
  readonly #deliverers = new Map<string, ChannelDeliverer>();
  /** The last liveness probe heard on the wake-up topic. */
  #probeHeard: string | undefined;
  #subscriberLook: NodeJS.Timeout | undefined;
  readonly #beats: SenderBeats;
  /** Opens a new connection at close: what was sent is recorded over it (every old one may be stuck). */
  readonly #handOverConnection: () => Promise<RedisClient>;
  #beatTimer: NodeJS.Timeout | undefined;
  #beating = false;
  #beatCount = 0;
  /** Subscribers' channels with work: at most `subscribers.deliverers` drained at once, the rest queued. */
  readonly #slots: SubscriberSlots;
  /** Subscribers' channels to queue again when their wait ends (a retry's backoff, a pause). */
  readonly #comeBack = new Map<string, NodeJS.Timeout>();
  #closed = false;

  constructor(ctx: DeliveryParts, subscriber: RedisClient, handOverConnection: () => Promise<RedisClient>) {
    this.#ctx = ctx;
    this.#subscriber = subscriber;
    this.#handOverConnection = handOverConnection;
    this.#beats = new SenderBeats(ctx.redis, ctx.prefix);
    this.#slots = new SubscriberSlots(
      () => ctx.settings().config.subscribers?.deliverers ?? NO_SUBSCRIBER_SLOTS,
      (channel) => this.#startSubscriberDeliverer(channel),
    );
  }

  /** Subscribes to wake-ups and starts a deliverer per channel. */
  async start(): Promise<void> {
    this.#subscriber.on('message', (_topic: string, channel: string) => {
      // Every process's probes reach every subscriber: only this process's own prove its path.
      if (!channel.startsWith(WAKE_PROBE_PREFIX)) this.#wake(channel);
      else if (channel.startsWith(wakeProbePrefix(this.#ctx.processId))) this.#probeHeard = channel;
    });
    await this.#subscriber.subscribe(this.#ctx.outbox.wakeChannel);
    // The first beat before any claim: a claim never names an incarnation that has not beaten.
    await this.#beats.beat(this.#ctx.processId);
    this.#beatTimer = setInterval(() => void this.#beat(), BEAT_MS).unref();
    this.sync(this.#ctx.settings().config.channels);
    // A wake-up published while this process was away is lost: look for subscribers' work at start too.
    void this.#lookAtSubscribers();
    this.#subscriberLook = setInterval(() => void this.#lookAtSubscribers(), SUBSCRIBER_LOOK_MS).unref();
  }

  /**
   * New work for a channel: its deliverer looks now. A subscriber's channel (`~<id>`) has a deliverer
   * only while it has work and a slot (delivery/subscriber-slots.ts), so thousands of quiet subscribers
   * cost nothing and thousands with mail share a few deliverers in turn.
   */
  #wake(channel: string): void {
    const deliverer = this.#deliverers.get(channel);
    if (deliverer) deliverer.poke();
    else if (subscriberIdOf(channel) !== undefined && this.#ctx.settings().subscriberMail)
      this.#slots.want(channel);
  }

  #startDeliverer(channel: string): void {
    const deliverer = new ChannelDeliverer(this.#ctx, channel);
    this.#deliverers.set(channel, deliverer);
    deliverer.start();
  }

  /** A subscriber's channel got a slot: its deliverer runs until its turn ends, then frees the slot. */
  #startSubscriberDeliverer(channel: string): void {
    const deliverer = new ChannelDeliverer(this.#ctx, channel, {
      contended: () => this.#slots.contended,
      ended: ({ again, afterMs }) => {
        if (this.#deliverers.get(channel) === deliverer) this.#deliverers.delete(channel);
        if (this.#closed) return;
        this.#slots.done(channel, again);
        if (afterMs !== undefined) this.#queueAfter(channel, afterMs);
      },
    });
    this.#deliverers.set(channel, deliverer);
    deliverer.start();
  }

  /** Queues a subscriber's channel again once its wait is over (one timer per channel). */
  #queueAfter(channel: string, ms: number): void {
    if (this.#comeBack.has(channel)) return;
    const timer = setTimeout(() => {
      this.#comeBack.delete(channel);
      if (!this.#closed) this.#wake(channel);
    }, ms);
    timer.unref();
    this.#comeBack.set(channel, timer);
  }

  /** Subscribers' deliverers running (each holding a slot) and channels waiting for a slot. */
  subscriberDeliverers(): { live: number; waiting: number } {
    return this.#slots.counts();
  }

  /**
   * Queues subscribers' outboxes with work that no wake-up reached (published while this process was
   * away, or lost), and unqueues those found with nothing ready. A deliverer that holds a slot ends its
   * own turn when its outbox has nothing ready.
   */
  async #lookAtSubscribers(): Promise<void> {
    if (!this.#ctx.settings().subscriberMail) return;
    try {
      await lookAtSubscriberOutboxes(
        this.#ctx.outbox,
        {
          running: () => this.#slots.channels(),
          start: (channel) => this.#wake(channel),
          stop: async (channel) => this.#slots.drop(channel),
        },
        this.#ctx.now().getTime(),
      );
    } catch (error) {
      this.#ctx.logger.warn({ err: error }, "cannot look at subscribers' outboxes");
    }
  }

  /** One heartbeat, never two at once (a wedged connection holds one, and the next are skipped). */
  async #beat(): Promise<void> {
    if (this.#beating) return;
    this.#beating = true;
    try {
      await this.#beats.beat(this.#ctx.processId, ++this.#beatCount % SWEEP_EVERY_BEATS === 0);
    } catch {
      // Redis does not answer: the beat lapses, which is what the other processes must see.
    } finally {
      this.#beating = false;
    }
  }

  /** Starts deliverers for new channels and stops those of removed ones (config reload). */
  sync(channels: readonly ChannelConfig[]): void {
    const wanted = new Set(channels.map((c) => c.name));
    for (const [name, deliverer] of this.#deliverers) {
      if (wanted.has(name) || subscriberIdOf(name) !== undefined) continue;
      void deliverer.stop(5_000);
      this.#deliverers.delete(name);
    }
    for (const channel of channels) {
      if (this.#deliverers.has(channel.name)) continue;
      this.#startDeliverer(channel.name);
    }
  }

  /** The connection the deliverers' reads and writes go through (their leases and outboxes). */
  get connection(): RedisClient {
    return this.#ctx.redis;
  }

  /** The last of this process's liveness probes its subscriber received, if any. */
  probeHeard(): string | undefined {
    return this.#probeHeard;
  }

  /** Records or releases each deliverer's message over a new connection; forgets the heartbeat if all went. */
  async #handOver(deliverers: readonly ChannelDeliverer[]): Promise<void> {
    const connection = await this.#handOverConnection();
    try {
      const outbox = new Outbox(connection, this.#ctx.prefix);
      const handed = await Promise.all(deliverers.map((d) => d.handOver(outbox).catch(() => false)));
      if (handed.every(Boolean))
        await new SenderBeats(connection, this.#ctx.prefix).forget(this.#ctx.processId);
    } finally {
      connection.disconnect();
    }
  }

  /**
   * Finishes messages in flight (up to `timeoutMs`), records over a new connection what was sent and not
   * recorded (the process's connections may be the stuck ones), releases every lease, closes both
   * connections. The heartbeat is forgotten only when nothing sent is left unrecorded.
   */
  async close(timeoutMs: number): Promise<void> {
    this.#closed = true;
    this.#slots.clear();
    for (const timer of this.#comeBack.values()) clearTimeout(timer);
    this.#comeBack.clear();
    clearInterval(this.#subscriberLook);
    if (this.#beatTimer) clearInterval(this.#beatTimer);
    const deliverers = [...this.#deliverers.values()];
    const graceful = (async () => {
      await Promise.all(deliverers.map((d) => d.stop(timeoutMs)));
      await this.#handOver(deliverers).catch(() => undefined);
      for (const client of [this.#subscriber, this.#ctx.redis])
        await client.quit().catch(() => client.disconnect());
    })();
    // A stuck connection answers neither the lease release nor the quit: cut it after the grace.
    const cut = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs + 5_000).unref());
    await Promise.race([graceful.catch(() => undefined), cut]);
    this.#subscriber.disconnect();
    this.#ctx.redis.disconnect();
    // Not awaited further: a stuck command connection may never answer the hand-over.
    this.#deliverers.clear();
  }
}
