class Delays {
  pending = /* @__PURE__ */ new Set();
  /** Resolves after `ms`, or at once when `releaseAll` runs first. */
  wait(ms) {
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.pending.delete(entry);
          resolve();
        }, ms),
        resolve
      };
      this.pending.add(entry);
    });
  }
  /** Ends every wait now. */
  releaseAll() {
    for (const entry of this.pending) {
      clearTimeout(entry.timer);
      entry.resolve();
    }
    this.pending.clear();
  }
}
export {
  Delays
};
