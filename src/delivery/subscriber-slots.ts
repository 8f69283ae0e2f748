/**
 * The slots for subscribers' deliverers in one process: at most `cap()` run at once, the others wait in
 * one first-come queue, each channel once. Thousands of subscribers with mail after a burst would
 * otherwise run thousands of deliverers at once, each renewing a lease, reading its outbox and queueing
 * a message on the one shared SMTP pool, which sends no faster for it. Pure: no Redis, no timers.
 */
export class SubscriberSlots {
  readonly #cap: () => number;
  readonly #start: (channel: string) => void;
  readonly #live = new Set<string>();
  /** Insertion-ordered: the first channel queued is the first started. */
  readonly #waiting = new Set<string>();

  /** `start` is called when a channel gets a slot; the channel's deliverer gives it back by {@link done}. */
  constructor(cap: () => number, start: (channel: string) => void) {
    this.#cap = cap;
    this.#start = start;
  }

  /** The channel has work: started now if a slot is free, else queued (once) behind the others. */
  want(channel: string): void {
    if (this.#live.has(channel) || this.#waiting.has(channel)) return;
    this.#waiting.add(channel);
    this.#fill();
  }

  /** Its deliverer ended: the slot goes to the next in the queue; `again`: it had work left, so it queues last. */
  done(channel: string, again = false): void {
    if (!this.#live.delete(channel)) return;
    if (again) this.#waiting.add(channel);
    this.#fill();
  }

  /** A channel no longer waits (a look found its outbox empty); one live keeps its slot until {@link done}. */
  drop(channel: string): void {
    this.#waiting.delete(channel);
  }

  /** Whether the channel holds a slot or waits for one. */
  has(channel: string): boolean {
    return this.#live.has(channel) || this.#waiting.has(channel);
  }

  /** Whether any channel waits for a slot: a live deliverer with more to send then ends its turn. */
  get contended(): boolean {
    return this.#waiting.size > 0;
  }

  /** Channels holding a slot, and channels waiting for one. */
  counts(): { live: number; waiting: number } {
    return { live: this.#live.size, waiting: this.#waiting.size };
  }

  /** Channels holding a slot or waiting, for a look at the outboxes. */
  channels(): string[] {
    return [...this.#live, ...this.#waiting];
  }

  /** Forgets every queued channel: the process stops. */
  clear(): void {
    this.#waiting.clear();
  }

  #fill(): void {
    const cap = Math.max(1, this.#cap());
    for (const channel of this.#waiting) {
      if (this.#live.size >= cap) return;
      this.#waiting.delete(channel);
      this.#live.add(channel);
      this.#start(channel);
    }
  }
}
