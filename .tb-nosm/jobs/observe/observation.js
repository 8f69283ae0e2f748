import { diffPositions } from "../../positions/index.js";
function diffObserved(observation, previous, options) {
  const { source, key, name } = observation;
  const diff = diffPositions({
    previous,
    issuer: { id: source === void 0 ? key : `${source}:${key}`, name },
    rows: [...observation.rows],
    lastUpdated: observation.version,
    now: observation.at,
    thresholds: options.thresholds,
    onFirstSeen: options.onFirstSeen
  });
  if (source === void 0) return diff;
  const events = diff.events.map((event) => ({ ...event, issuer: { id: key, name }, source }));
  return { ...diff, events };
}
export {
  diffObserved
};
