/**
 * Detection latency of one poller: when a refresh changes an issuer, the clock starts; the first poll
 * of that issuer afterwards stops it. A poll whose diff found events records the latency; one that
 * found none (the change netted out, e.g. a re-disclosure at the same value) is counted apart.
 */
export class ChangeTracker {
  readonly latenciesMs: number[] = [];
  netted = 0;
  readonly #pending = new Map<string, number>();

  /** A refresh at `at` changed these issuers; an earlier unseen change keeps its earlier start. */
  changed(issuerIds: readonly string[], at: number): void {
    for (const id of issuerIds) if (!this.#pending.has(id)) this.#pending.set(id, at);
  }

  /** A poll of `issuerId` answered at `at` with the current dataset, and its diff found `events`. */
  polled(issuerId: string, at: number, events: number): void {
    const since = this.#pending.get(issuerId);
    if (since === undefined) return;
    this.#pending.delete(issuerId);
    if (events > 0) this.latenciesMs.push(at - since);
    else this.netted++;
  }

  /** Changes no poll had seen when the run ended. */
  undetected(): number {
    return this.#pending.size;
  }
}
