import { RegisterStore } from "../../state/register-store.js";
const STALE_AFTER_INTERVALS = 3;
function sourceState(source, health, nowMs, heldRead = null) {
  const base = {
    name: source.name,
    kind: source.kind,
    ...heldRead === null ? {} : { held: heldText(heldRead) }
  };
  if (health === null) return { ...base, state: "never", reason: null, lastGoodAt: null };
  const lastGood = health.lastGoodAt ?? health.since;
  const reason = health.status === "not-read" ? `${health.reason}: ${health.detail ?? ""}`.trim() : null;
  const stale = nowMs - Date.parse(lastGood) > STALE_AFTER_INTERVALS * source.interval;
  return {
    ...base,
    state: stale ? "stale" : health.status,
    reason,
    lastGoodAt: health.lastGoodAt ?? null
  };
}
function heldText(held) {
  const again = held.readAgainAt === void 0 ? "" : `; read again at ${held.readAgainAt}`;
  return `${held.text} (since ${held.since}${again})`;
}
async function collectSources(redis, root, sources, nowMs) {
  const store = new RegisterStore(redis, root);
  return Promise.all(
    sources.map(
      async (source) => sourceState(source, await store.health(source.name), nowMs, await store.held(source.name))
    )
  );
}
export {
  STALE_AFTER_INTERVALS,
  collectSources,
  sourceState
};
