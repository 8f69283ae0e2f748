import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

/** Sampling resolution: a timer every 20 ms, so a delay shorter than that is not told apart from none. */
const RESOLUTION_MS = 20;
const NS_PER_MS = 1e6;

/** The event loop's delays as measured so far, in ms. */
export interface EventLoopDelayReport {
  maxMs: number;
}

/**
 * This process's event-loop delay from the moment its daemon starts (node:perf_hooks): how long a timer
 * waited past its time. Synchronous work on the event loop (a parse, a large JSON.parse, a regular
 * expression) shows as a delay as long as it ran; a machine merely short of CPU delays each timer a little.
 * So its maximum tells a blocked loop from a busy machine, which a probe from outside cannot.
 */
export class EventLoopDelay {
  readonly #histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });

  start(): void {
    this.#histogram.enable();
  }

  stop(): void {
    this.#histogram.disable();
  }

  /** The longest delay since `start`; 0 before the first sample. */
  report(): EventLoopDelayReport {
    return { maxMs: this.#histogram.count === 0 ? 0 : this.#histogram.max / NS_PER_MS };
  }
}
