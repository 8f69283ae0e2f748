const TAKEN = /* @__PURE__ */ new Set(["send", "defer", "stage"]);
function recordFallsTold(memory, logged) {
  const next = { ...memory };
  for (const { event, routes } of logged) {
    if (event.story?.kind !== "fell-below" || event.current === null) continue;
    const entry = Object.hasOwn(next, event.holderKey) ? next[event.holderKey] : void 0;
    if (!entry?.below) continue;
    const toldTo = routes.filter((route) => TAKEN.has(route.verdict)).map((route) => route.channel);
    Object.defineProperty(next, event.holderKey, {
      value: { ...entry, below: { ...entry.below, toldTo } },
      enumerable: true,
      writable: true,
      configurable: true
    });
  }
  return next;
}
export {
  recordFallsTold
};
