function startPublications(scenario, now) {
  const startMs = now();
  const last = scenario.lastPublication(startMs);
  if (last === void 0) return void 0;
  scenario.setLastUpdated(new Date(last).toISOString());
  let timer;
  let stopped = false;
  const arm = (afterMs) => {
    const due = scenario.nextPublication(afterMs);
    if (stopped || due === void 0) return;
    timer = setTimeout(() => {
      const at = now();
      if (at < due) return arm(afterMs);
      scenario.publish(at);
      arm(Math.max(at, due));
    }, due - now());
    timer.unref();
  };
  arm(startMs);
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    }
  };
}
export {
  startPublications
};
