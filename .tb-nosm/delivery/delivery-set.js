import { subscriberIdOf } from "../routing/subscriber.js";
import { Outbox } from "../state/outbox.js";
import { SenderBeats } from "../state/sender-beats.js";
import { ChannelDeliverer } from "./deliverer.js";
import { lookAtSubscriberOutboxes } from "./subscriber-outboxes.js";
const SUBSCRIBER_LOOK_MS = 3e4;
const BEAT_MS = 1e3;
const SWEEP_EVERY_BEATS = 600;
const WAKE_PROBE_PREFIX = "probe:";
function wakeProbePrefix(processId) {
  return `${WAKE_PROBE_PREFIX}${processId}:`;
}
class DeliverySet {
  #ctx;
  #subscriber;
  #deliverers = /* @__PURE__ */ new Map();
  /** The last liveness probe heard on the wake-up topic. */
  #probeHeard;
  #subscriberLook;
  #beats;
  /** Opens a new connection at close: what was sent is recorded over it (every old one may be stuck). */
  #handOverConnection;
  #beatTimer;
  #beating = false;
  #beatCount = 0;
  constructor(ctx, subscriber, handOverConnection) {
    this.#ctx = ctx;
    this.#subscriber = subscriber;
    this.#handOverConnection = handOverConnection;
    this.#beats = new SenderBeats(ctx.redis, ctx.prefix);
  }
  /** Subscribes to wake-ups and starts a deliverer per channel. */
  async start() {
    this.#subscriber.on("message", (_topic, channel) => {
      if (!channel.startsWith(WAKE_PROBE_PREFIX)) this.#wake(channel);
      else if (channel.startsWith(wakeProbePrefix(this.#ctx.processId))) this.#probeHeard = channel;
    });
    await this.#subscriber.subscribe(this.#ctx.outbox.wakeChannel);
    await this.#beats.beat(this.#ctx.processId);
    this.#beatTimer = setInterval(() => void this.#beat(), BEAT_MS).unref();
    this.sync(this.#ctx.settings().config.channels);
    void this.#lookAtSubscribers();
    this.#subscriberLook = setInterval(() => void this.#lookAtSubscribers(), SUBSCRIBER_LOOK_MS).unref();
  }
  /**
   * New work for a channel: its deliverer looks now. A subscriber's channel (`~<id>`) has a deliverer
   * only while it has work, so thousands of quiet subscribers cost nothing.
   */
  #wake(channel) {
    const deliverer = this.#deliverers.get(channel);
    if (deliverer) deliverer.poke();
    else if (subscriberIdOf(channel) !== void 0 && this.#ctx.settings().subscriberMail)
      this.#startDeliverer(channel);
  }
  #startDeliverer(channel) {
    const deliverer = new ChannelDeliverer(this.#ctx, channel);
    this.#deliverers.set(channel, deliverer);
    deliverer.start();
  }
  /** Starts deliverers for subscribers' outboxes with work and stops those of outboxes drained. */
  async #lookAtSubscribers() {
    if (!this.#ctx.settings().subscriberMail) return;
    const deliverers = this.#deliverers;
    try {
      await lookAtSubscriberOutboxes(
        this.#ctx.outbox,
        {
          running: () => [...deliverers.keys()].filter((channel) => subscriberIdOf(channel) !== void 0),
          start: (channel) => this.#startDeliverer(channel),
          stop: async (channel) => {
            const deliverer = deliverers.get(channel);
            deliverers.delete(channel);
            await deliverer?.stop(5e3);
          }
        },
        this.#ctx.now().getTime()
      );
    } catch (error) {
      this.#ctx.logger.warn({ err: error }, "cannot look at subscribers' outboxes");
    }
  }
  /** One heartbeat, never two at once (a wedged connection holds one, and the next are skipped). */
  async #beat() {
    if (this.#beating) return;
    this.#beating = true;
    try {
      await this.#beats.beat(this.#ctx.processId, ++this.#beatCount % SWEEP_EVERY_BEATS === 0);
    } catch {
    } finally {
      this.#beating = false;
    }
  }
  /** Starts deliverers for new channels and stops those of removed ones (config reload). */
  sync(channels) {
    const wanted = new Set(channels.map((c) => c.name));
    for (const [name, deliverer] of this.#deliverers) {
      if (wanted.has(name) || subscriberIdOf(name) !== void 0) continue;
      void deliverer.stop(5e3);
      this.#deliverers.delete(name);
    }
    for (const channel of channels) {
      if (this.#deliverers.has(channel.name)) continue;
      this.#startDeliverer(channel.name);
    }
  }
  /** The connection the deliverers' reads and writes go through (their leases and outboxes). */
  get connection() {
    return this.#ctx.redis;
  }
  /** The last of this process's liveness probes its subscriber received, if any. */
  probeHeard() {
    return this.#probeHeard;
  }
  /** Records or releases each deliverer's message over a new connection; forgets the heartbeat if all went. */
  async #handOver(deliverers) {
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
  async close(timeoutMs) {
    clearInterval(this.#subscriberLook);
    if (this.#beatTimer) clearInterval(this.#beatTimer);
    const deliverers = [...this.#deliverers.values()];
    const graceful = (async () => {
      await Promise.all(deliverers.map((d) => d.stop(timeoutMs)));
      await this.#handOver(deliverers).catch(() => void 0);
      for (const client of [this.#subscriber, this.#ctx.redis])
        await client.quit().catch(() => client.disconnect());
    })();
    const cut = new Promise((resolve) => setTimeout(resolve, timeoutMs + 5e3).unref());
    await Promise.race([graceful.catch(() => void 0), cut]);
    this.#subscriber.disconnect();
    this.#ctx.redis.disconnect();
    this.#deliverers.clear();
  }
}
export {
  DeliverySet,
  WAKE_PROBE_PREFIX,
  wakeProbePrefix
};
