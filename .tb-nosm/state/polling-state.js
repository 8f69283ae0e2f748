const TRANSIENT = /* @__PURE__ */ new Set([
  "server",
  "timeout",
  "network",
  "unexpected-status"
]);
function pollingState(input) {
  const { health, nowMs } = input;
  const slack = input.intervalMs / 2;
  if (health?.notFound && health.notFound.retryAt - slack > nowMs)
    return { state: "not-found", waitUntil: health.notFound.retryAt };
  if (health?.failing) {
    const { retryAt, cause } = health.failing;
    const waiting = retryAt !== void 0 && retryAt - slack > nowMs && !earlyTry(input);
    return { state: "failing", cause, ...waiting ? { waitUntil: retryAt } : {} };
  }
  if (health?.lagging) {
    const { retryAt, expected } = health.lagging;
    const moved = input.listVersion !== null && Date.parse(input.listVersion) > Date.parse(expected);
    return { state: "lagging", ...!moved && retryAt - slack > nowMs ? { waitUntil: retryAt } : {} };
  }
  if (!input.hasSnapshot) return { state: "new" };
  if (input.listVersion === null) return { state: "blind" };
  return { state: health?.dueSince ? "due" : "current" };
}
function earlyTry(input) {
  const failing = input.health?.failing;
  if (!failing || !TRANSIENT.has(failing.cause) || input.listVersion === null) return false;
  const failedAt = failing.version ? Date.parse(failing.version) : Number.NaN;
  return !(Date.parse(input.listVersion) <= failedAt);
}
function mayPoll(state) {
  return state.waitUntil === void 0;
}
function failureBackoffMs(count, intervalMs, maxStalenessMs) {
  return Math.min(maxStalenessMs, intervalMs * 2 ** Math.max(0, count - 1));
}
function lagBackoffMs(count, intervalMs, maxStalenessMs) {
  return count <= 1 ? intervalMs : maxStalenessMs;
}
export {
  failureBackoffMs,
  lagBackoffMs,
  mayPoll,
  pollingState
};
