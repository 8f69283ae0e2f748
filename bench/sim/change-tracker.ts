/**
 * Detection latency of one poller: when a refresh changes an issuer, the clock starts; the first poll
 * of that issuer afterwards stops it. A poll whose diff found events records the latency, once per
 * change and once per event (the event-weighted figures); one that found none (the change netted out,
 * e.g. a re-disclosure at the same value) is counted apart. It also keeps the longest time any issuer
 * went unpolled.
 */
export class ChangeTracker {
  readonly latenciesMs: number[] = [];
  /** The same latencies, one entry per event the poll found. */
  readonly eventLatenciesMs: number[] = [];
  netted = 0;
  /** Every detection: the change's start and the poll that found it (for reports that explain a tail). */
  readonly detections: { id: string; since: number; at: number }[] = [];
  readonly #pending = new Map<string, number>();
  readonly #lastPolled = new Map<string, number>();
  #longestGapMs = 0;
  #gapWindow: [number, number] = [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY];

  /** `label` names the poller in reports. */
  constructor(readonly label = '') {}

  /** A refresh at `at` changed these issuers; an earlier unseen change keeps its earlier start. */
  changed(issuerIds: readonly string[], at: number): void {
    for (const id of issuerIds) if (!this.#pending.has(id)) this.#pending.set(id, at);
  }

  /** A poll of `issuerId` answered at `at` with the current dataset, and its diff found `events`. */
  polled(issuerId: string, at: number, events: number): void {
    const last = this.#lastPolled.get(issuerId);
    if (last !== undefined) {
      // A gap running past the measured days counts up to their end.
      const gap = Math.min(at, this.#gapWindow[1]) - last;
      if (at >= this.#gapWindow[0] && gap > this.#longestGapMs) {
        this.#longestGapMs = gap;
      }
    }
    this.#lastPolled.set(issuerId, at);
    const since = this.#pending.get(issuerId);
    if (since === undefined) return;
    this.#pending.delete(issuerId);
    if (events > 0) {
      this.latenciesMs.push(at - since);
      this.detections.push({ id: issuerId, since, at });
      for (let i = 0; i < events; i++) this.eventLatenciesMs.push(at - since);
    } else this.netted++;
  }

  /**
   * Counts only the unpolled gaps that end within [from, to]: the measured days, without the burn-in
   * (the refresh times are not learned yet) and the drain (business days without a publication).
   */
  measureGapsWithin(from: number, to: number): void {
    this.#gapWindow = [from, to];
  }

  /** Changes no poll had seen when the run ended. */
  undetected(): number {
    return this.#pending.size;
  }

  /**
   * The longest time between two polls of one issuer within the measured days, or from an issuer's
   * last poll to the end of them when it was not polled again; `ids` never polled count from `start`.
   */
  longestGapMs(ids: readonly string[], start: number): number {
    let longest = this.#longestGapMs;
    const end = Math.min(this.#gapWindow[1], Number.MAX_SAFE_INTEGER);
    for (const id of ids) longest = Math.max(longest, end - (this.#lastPolled.get(id) ?? start));
    return longest;
  }
}
