function matches(record, filter) {
  return (filter.key === void 0 || record.key === filter.key) && (filter.status === void 0 || record.status === filter.status) && (filter.operation === void 0 || record.operation === filter.operation) && (filter.issuerId === void 0 || record.issuerId === filter.issuerId);
}
class RequestLog {
  log = [];
  get requests() {
    return this.log;
  }
  /** Appends one answered request. */
  record(record) {
    this.log.push(record);
  }
  count(filter = {}) {
    return this.log.filter((record) => matches(record, filter)).length;
  }
  maxInWindow(ms, filter = {}) {
    const perWindow = /* @__PURE__ */ new Map();
    let max = 0;
    for (const record of this.log) {
      if (!matches(record, filter)) continue;
      const window = Math.floor(record.at / ms);
      const count = (perWindow.get(window) ?? 0) + 1;
      perWindow.set(window, count);
      max = Math.max(max, count);
    }
    return max;
  }
  reset() {
    this.log = [];
  }
}
export {
  RequestLog
};
