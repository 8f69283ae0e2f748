const REPEAT_GRACE_MS = 5e3;
function watchForStop(source, durationMs, onRepeat, now = Date.now) {
  let stopped = false;
  let stoppedAt = 0;
  let timer;
  let settle = () => void 0;
  const reason = new Promise((resolve) => {
    settle = resolve;
  });
  const stop = (why) => {
    if (stopped) {
      if (why !== "duration" && now() - stoppedAt > REPEAT_GRACE_MS) onRepeat(why);
      return;
    }
    stopped = true;
    stoppedAt = now();
    clearTimeout(timer);
    settle(why);
  };
  const onInt = () => stop("SIGINT");
  const onTerm = () => stop("SIGTERM");
  source.on("SIGINT", onInt);
  source.on("SIGTERM", onTerm);
  if (durationMs !== void 0) timer = setTimeout(() => stop("duration"), durationMs);
  return {
    reason,
    dispose() {
      clearTimeout(timer);
      source.off("SIGINT", onInt);
      source.off("SIGTERM", onTerm);
    }
  };
}
export {
  REPEAT_GRACE_MS,
  watchForStop
};
