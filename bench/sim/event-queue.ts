/** A timed callback of the simulation. */
interface Timer {
  at: number;
  seq: number;
  fire: () => void;
}

/**
 * A virtual clock driving a discrete-event simulation: callbacks run in time order (ties in the order
 * they were scheduled), and `now` jumps from one to the next. Nothing here reads the wall clock.
 */
export class VirtualClock {
  #now: number;
  #seq = 0;
  readonly #heap: Timer[] = [];

  constructor(start: number) {
    this.#now = start;
  }

  /** The current virtual time, epoch ms. */
  now(): number {
    return this.#now;
  }

  /** Runs `fire` at virtual time `at` (never earlier than now). */
  at(at: number, fire: () => void): void {
    this.#push({ at: Math.max(at, this.#now), seq: this.#seq++, fire });
  }

  /** Runs callbacks in order until the next one would be after `until`; then the clock reads `until`. */
  runUntil(until: number): void {
    for (;;) {
      const next = this.#heap[0];
      if (!next || next.at > until) break;
      this.#pop();
      this.#now = next.at;
      next.fire();
    }
    this.#now = Math.max(this.#now, until);
  }

  #before(a: Timer, b: Timer): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  #push(timer: Timer): void {
    const heap = this.#heap;
    heap.push(timer);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent];
      if (!p || !this.#before(timer, p)) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = timer;
  }

  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop();
    if (!last || heap.length === 0) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = last;
      let at = -1;
      const l = heap[left];
      const r = heap[right];
      if (l && this.#before(l, smallest)) {
        smallest = l;
        at = left;
      }
      if (r && this.#before(r, smallest)) {
        smallest = r;
        at = right;
      }
      if (at < 0) break;
      heap[i] = smallest;
      i = at;
    }
    heap[i] = last;
  }
}
