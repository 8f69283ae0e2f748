/** A rate-limit window, named as the 429 body's `window` names it. */
export type LimitWindow = 'minute' | 'day';

/** The plan's caps and window lengths. */
export interface LimitConfig {
  perMinute: number;
  perDay: number;
  minuteMs: number;
  dayMs: number;
}

/** A refused request: which cap, and seconds until its window resets. */
export interface LimitHit {
  window: LimitWindow;
  limit: number;
  retryAfterSeconds: number;
}

interface Counter {
  minuteStart: number;
  minute: number;
  dayStart: number;
  day: number;
}

/** Fixed windows per key, aligned on multiples of their length (UTC midnight for days). */
export class FixedWindowLimiter {
  private readonly counters = new Map<string, Counter>();

  constructor(private readonly config: LimitConfig) {}

  /** Counts a request (refused ones too) and says whether a cap was already used up. */
  hit(key: string, now: number): LimitHit | undefined {
    const counter = this.counter(key, now);
    const { perDay, perMinute } = this.config;
    const window: LimitWindow | undefined =
      counter.day >= perDay ? 'day' : counter.minute >= perMinute ? 'minute' : undefined;
    counter.minute++;
    counter.day++;
    if (!window) return undefined;
    return { window, limit: this.limit(window), retryAfterSeconds: this.secondsToReset(window, now) };
  }

  /** The cap of a window. */
  limit(window: LimitWindow): number {
    return window === 'day' ? this.config.perDay : this.config.perMinute;
  }

  /** Whole seconds (rounded up) until the current window of that kind resets. */
  secondsToReset(window: LimitWindow, now: number): number {
    const length = window === 'day' ? this.config.dayMs : this.config.minuteMs;
    return Math.ceil((windowStart(now, length) + length - now) / 1000);
  }

  private counter(key: string, now: number): Counter {
    const minuteStart = windowStart(now, this.config.minuteMs);
    const dayStart = windowStart(now, this.config.dayMs);
    const counter = this.counters.get(key) ?? { minuteStart, minute: 0, dayStart, day: 0 };
    if (counter.minuteStart !== minuteStart) Object.assign(counter, { minuteStart, minute: 0 });
    if (counter.dayStart !== dayStart) Object.assign(counter, { dayStart, day: 0 });
    this.counters.set(key, counter);
    return counter;
  }
}

function windowStart(now: number, length: number): number {
  return Math.floor(now / length) * length;
}
