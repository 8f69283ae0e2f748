import { eventId } from "../../positions/event-id.js";
import { holderKey } from "../../positions/holder-key.js";
import { round4 } from "../../positions/round.js";
function aggregateHolder(thresholdPercent) {
  return `Aggregate of positions from ${round4(thresholdPercent)}%`;
}
function belowThresholdHolder(thresholdPercent) {
  return `Below the public threshold (aggregate from ${round4(thresholdPercent)}% minus named positions)`;
}
const SCOPE_HOLDER = "Reportable Shares List";
function aggregateAlerts(events, ctx) {
  const crossings = /* @__PURE__ */ new Map();
  for (const event of events) {
    if (event.kind !== "aggregate-crossed") continue;
    const seen = crossings.get(event.issuer.key) ?? { levels: [], direction: event.direction };
    seen.levels.push(event.level);
    crossings.set(event.issuer.key, seen);
  }
  return events.flatMap((event) => {
    if (event.kind === "aggregate-crossed") return [];
    const alert = alertOf(event, crossings.get(event.issuer.key), ctx);
    return alert === void 0 ? [] : [alert];
  });
}
function alertOf(event, crossing, ctx) {
  const shape = shapeOf(event, crossing, ctx);
  const kind = kindOf(shape.previous, shape.current);
  const key = holderKey(shape.holder);
  const issuerId = `${ctx.source}:${event.issuer.key}`;
  const from = shape.previous?.value ?? 0;
  const to = shape.current?.value ?? 0;
  return {
    id: eventId({
      issuerId,
      holderKey: key,
      from: ctx.from,
      kind,
      previous: shape.previous,
      current: shape.current
    }),
    kind,
    issuer: issuerOf(event.issuer),
    holderKey: key,
    holder: shape.holder,
    previous: shape.previous,
    current: shape.current,
    delta: round4(to - from),
    thresholdsCrossed: shape.crossed ?? [],
    issuerTotal: { before: from, after: to },
    detectedAt: ctx.detectedAt,
    source: ctx.source,
    aggregate: shape.facts
  };
}
function shapeOf(event, crossing, ctx) {
  switch (event.kind) {
    case "below-threshold-moved":
      return {
        holder: belowThresholdHolder(event.thresholdPercent),
        facts: {
          kind: event.kind,
          thresholdPercent: event.thresholdPercent,
          aggregatePercent: event.aggregatePercent,
          namedPercent: event.namedPercent
        },
        previous: disclosed(event.fromPercent, ctx.listedOn),
        current: disclosed(event.toPercent, ctx.listedOn)
      };
    case "scope-added":
    case "scope-removed":
      return {
        holder: SCOPE_HOLDER,
        facts: { kind: event.kind },
        previous: event.kind === "scope-added" ? null : disclosed(0, ctx.listedOn),
        current: disclosed(0, ctx.listedOn)
      };
    default:
      return aggregateShape(event, crossing);
  }
}
const disclosed = (percent, date) => ({ value: percent, date });
function aggregateShape(event, crossing) {
  const holder = aggregateHolder(event.thresholdPercent);
  switch (event.kind) {
    case "aggregate-entered":
      return {
        holder,
        facts: { kind: event.kind, thresholdPercent: event.thresholdPercent },
        previous: null,
        current: disclosed(event.to.percent, event.to.date)
      };
    case "aggregate-ended":
      return {
        holder,
        facts: { kind: event.kind, thresholdPercent: event.thresholdPercent },
        previous: disclosed(event.from.percent, event.from.date),
        current: disclosed(0, event.from.date)
      };
    case "aggregate-changed":
      return {
        holder,
        facts: {
          kind: crossing ? "aggregate-crossed" : "aggregate-changed",
          thresholdPercent: event.thresholdPercent,
          ...crossing ? { direction: crossing.direction } : {}
        },
        previous: disclosed(event.from.percent, event.from.date),
        current: disclosed(event.to.percent, event.to.date),
        crossed: [...crossing?.levels ?? []].sort((a, b) => a - b)
      };
    case "aggregate-revised":
      return {
        holder: `${holder}, revised for ${event.date}`,
        facts: { kind: event.kind, thresholdPercent: event.thresholdPercent, revisedDate: event.date },
        previous: disclosed(event.fromPercent, event.date),
        current: disclosed(event.toPercent, event.date)
      };
  }
}
function kindOf(previous, current) {
  if (previous === null) return "opened";
  return (current?.value ?? 0) > previous.value ? "increased" : "decreased";
}
function issuerOf(ref) {
  return { id: ref.key, name: ref.name };
}
export {
  SCOPE_HOLDER,
  aggregateAlerts,
  aggregateHolder,
  belowThresholdHolder
};
