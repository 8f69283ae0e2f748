import { eventId } from "../../positions/event-id.js";
import { holderKey } from "../../positions/holder-key.js";
import { planDelivery } from "../../routing/index.js";
const NAMED_HOLDERS = "Named holders";
function regimeEvent(drop, ctx) {
  const lastDate = drop.closes.reduce((latest, e) => maxDate(latest, e.previous?.date), "");
  const previous = { value: drop.lastNamedSum, date: lastDate || ctx.date };
  const current = { value: 0, date: ctx.date };
  const key = holderKey(NAMED_HOLDERS);
  const from = drop.silent.previous?.polledAt ?? "first";
  return {
    id: eventId({
      issuerId: ctx.source === void 0 ? drop.key : `${ctx.source}:${drop.key}`,
      holderKey: key,
      from,
      kind: "decreased",
      previous,
      current
    }),
    kind: "decreased",
    issuer: { id: drop.key, name: drop.name },
    holderKey: key,
    holder: NAMED_HOLDERS,
    previous,
    current,
    delta: -drop.lastNamedSum,
    thresholdsCrossed: [],
    issuerTotal: { before: drop.lastNamedSum, after: 0 },
    detectedAt: ctx.detectedAt,
    ...ctx.source === void 0 ? {} : { source: ctx.source },
    aggregate: {
      kind: "named-holders-ended",
      namedPercent: drop.lastNamedSum,
      namedHolders: drop.closes.length
    }
  };
}
function planRegimeEvent(drop, event, routing) {
  const closes = planDelivery(drop.closes, routing.channels, routing.mutes, routing.now, routing.options);
  const own = planDelivery([event], routing.channels, routing.mutes, routing.now, routing.options);
  const muted = new Map(
    (own.logged[0]?.routes ?? []).filter((r) => r.verdict === "muted").map((r) => [r.channel, r])
  );
  const targets = /* @__PURE__ */ new Map();
  for (const target of closes.targets) {
    if (muted.has(target.channel)) continue;
    targets.set(`${target.type}|${target.channel}|${target.readyAt ?? ""}`, { ...target, events: [event] });
  }
  const routes = routing.channels.map(
    (channel) => muted.get(channel.name) ?? verdictOf(channel.name, closes.logged)
  );
  return { targets: [...targets.values()], suppressed: [], logged: [{ event, routes }] };
}
function verdictOf(channel, logged) {
  const verdicts = logged.flatMap(({ routes }) => routes.filter((route) => route.channel === channel));
  const told = verdicts.find((v) => v.verdict === "send" || v.verdict === "defer" || v.verdict === "stage");
  return told ?? verdicts[0] ?? { channel, verdict: "skip", reason: "no close to route" };
}
function maxDate(a, b) {
  return b !== void 0 && b > a ? b : a;
}
function withoutBoundaryArtefacts(events) {
  return events.filter((event) => event.aggregate?.kind !== "below-threshold-moved");
}
export {
  NAMED_HOLDERS,
  planRegimeEvent,
  regimeEvent,
  withoutBoundaryArtefacts
};
