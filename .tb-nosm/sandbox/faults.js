function applies(spec, target) {
  if (target.operation === "other") return false;
  if (spec.quirk !== void 0 && target.operation !== "positions") return false;
  if (spec.operation !== void 0 && spec.operation !== target.operation) return false;
  return spec.issuerId === void 0 || target.operation === "positions" && spec.issuerId === target.issuerId;
}
class FaultQueue {
  queue = [];
  inject(spec) {
    if ((spec.times ?? 1) <= 0) return;
    this.queue.push({ spec: { ...spec }, left: spec.times ?? 1 });
  }
  rateLimit(window, options = {}) {
    if ((options.times ?? 1) <= 0) return;
    this.queue.push({
      spec: { status: 429 },
      rateLimit: { window, retryAfterSeconds: options.retryAfterSeconds },
      left: options.times ?? 1
    });
  }
  clear() {
    this.queue = [];
  }
  pending() {
    return this.queue.length;
  }
  /** Takes one use of the first fault matching the request. */
  take(target) {
    const found = this.queue.find((queued) => applies(queued.spec, target));
    if (!found) return void 0;
    found.left--;
    if (found.left <= 0) this.queue = this.queue.filter((queued) => queued !== found);
    return { spec: found.spec, ...found.rateLimit ? { rateLimit: found.rateLimit } : {} };
  }
}
export {
  FaultQueue
};
