class FixedWindowLimiter {
  constructor(config) {
    this.config = config;
  }
  config;
  counters = /* @__PURE__ */ new Map();
  /** Counts a request (refused ones too) and says whether a cap was already used up. */
  hit(key, now) {
    const counter = this.counter(key, now);
    const { perDay, perMinute } = this.config;
    const window = counter.day >= perDay ? "day" : counter.minute >= perMinute ? "minute" : void 0;
    counter.minute++;
    counter.day++;
    if (!window) return void 0;
    return { window, limit: this.limit(window), retryAfterSeconds: this.secondsToReset(window, now) };
  }
  /** The cap of a window. */
  limit(window) {
    return window === "day" ? this.config.perDay : this.config.perMinute;
  }
  /** Whole seconds (rounded up) until the current window of that kind resets. */
  secondsToReset(window, now) {
    const length = window === "day" ? this.config.dayMs : this.config.minuteMs;
    return Math.ceil((windowStart(now, length) + length - now) / 1e3);
  }
  counter(key, now) {
    const minuteStart = windowStart(now, this.config.minuteMs);
    const dayStart = windowStart(now, this.config.dayMs);
    const counter = this.counters.get(key) ?? { minuteStart, minute: 0, dayStart, day: 0 };
    if (counter.minuteStart !== minuteStart) Object.assign(counter, { minuteStart, minute: 0 });
    if (counter.dayStart !== dayStart) Object.assign(counter, { dayStart, day: 0 });
    this.counters.set(key, counter);
    return counter;
  }
}
function windowStart(now, length) {
  return Math.floor(now / length) * length;
}
export {
  FixedWindowLimiter
};
