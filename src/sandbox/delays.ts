interface Pending {
  timer: NodeJS.Timeout;
  resolve: () => void;
}

/** Timers for injected delays, all released at once when the sandbox closes. */
export class Delays {
  private readonly pending = new Set<Pending>();

  /** Resolves after `ms`, or at once when `releaseAll` runs first. */
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const entry: Pending = {
        timer: setTimeout(() => {
          this.pending.delete(entry);
          resolve();
        }, ms),
        resolve,
      };
      this.pending.add(entry);
    });
  }

  /** Ends every wait now. */
  releaseAll(): void {
    for (const entry of this.pending) {
      clearTimeout(entry.timer);
      entry.resolve();
    }
    this.pending.clear();
  }
}
