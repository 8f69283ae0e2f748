/** Why the demo stops. */
export type StopReason = 'SIGINT' | 'SIGTERM' | 'duration';

/** Where signals come from: `process`, or a stand-in. */
export interface SignalSource {
  on(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
  off(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
}

/** A pending stop: resolves on the first SIGINT/SIGTERM or when `durationMs` has passed. */
export interface StopWatch {
  reason: Promise<StopReason>;
  /** Removes the listeners and the timer. */
  dispose(): void;
}

/**
 * One Ctrl-C often arrives more than once: the terminal signals the whole process group, and `npm run`
 * and `tsx` each relay it again, late on a loaded machine. Repeats this close to the first are the same
 * keypress; a second Ctrl-C meant to force the exit comes after it.
 */
export const REPEAT_GRACE_MS = 5_000;

/**
 * Waits for Ctrl-C, SIGTERM or the end of `durationMs`. Another signal while stopping, later than
 * {@link REPEAT_GRACE_MS} after the first, calls `onRepeat` (the demo exits at once then).
 */
export function watchForStop(
  source: SignalSource,
  durationMs: number | undefined,
  onRepeat: (signal: 'SIGINT' | 'SIGTERM') => void,
  now: () => number = Date.now,
): StopWatch {
  let stopped = false;
  let stoppedAt = 0;
  let timer: NodeJS.Timeout | undefined;
  let settle: (reason: StopReason) => void = () => undefined;
  const reason = new Promise<StopReason>((resolve) => {
    settle = resolve;
  });
  const stop = (why: StopReason) => {
    if (stopped) {
      if (why !== 'duration' && now() - stoppedAt > REPEAT_GRACE_MS) onRepeat(why);
      return;
    }
    stopped = true;
    stoppedAt = now();
    clearTimeout(timer);
    settle(why);
  };
  const onInt = () => stop('SIGINT');
  const onTerm = () => stop('SIGTERM');
  source.on('SIGINT', onInt);
  source.on('SIGTERM', onTerm);
  if (durationMs !== undefined) timer = setTimeout(() => stop('duration'), durationMs);
  return {
    reason,
    dispose() {
      clearTimeout(timer);
      source.off('SIGINT', onInt);
      source.off('SIGTERM', onTerm);
    },
  };
}
