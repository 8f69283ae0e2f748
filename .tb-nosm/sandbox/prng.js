class Random {
  state;
  constructor(seed) {
    this.state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next() {
    this.state = this.state + 1831565813 >>> 0;
    let t = this.state;
    t = Math.imul(t ^ t >>> 15, t | 1);
    t ^= t + Math.imul(t ^ t >>> 7, t | 61);
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  }
  /** An integer in [min, max], both included. */
  int(min, max) {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  /** True with probability `p`. */
  chance(p) {
    return this.next() < p;
  }
  /** One item; undefined for an empty list. */
  pick(items) {
    return items[Math.floor(this.next() * items.length)];
  }
  /** One item, chosen in proportion to its weight; undefined when no item has a positive weight. */
  weighted(items, weight) {
    const weights = items.map((item) => Math.max(0, weight(item)));
    let left = this.next() * weights.reduce((sum, w) => sum + w, 0);
    for (const [i, item] of items.entries()) {
      const w = weights[i] ?? 0;
      if (w > 0 && left < w) return item;
      left -= w;
    }
    return items.findLast((_, i) => (weights[i] ?? 0) > 0);
  }
  /** Shuffles in place (Fisher-Yates) and returns the same array. */
  shuffle(items) {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const a = items[i];
      const b = items[j];
      if (a === void 0 || b === void 0) continue;
      items[i] = b;
      items[j] = a;
    }
    return items;
  }
  /** Up to `n` distinct items in random order. */
  sample(items, n) {
    return this.shuffle([...items]).slice(0, n);
  }
}
export {
  Random
};
