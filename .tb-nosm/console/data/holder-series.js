import { holderKey } from "../../positions/holder-key.js";
function dayMs(date) {
  return Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
}
function dayOf(t) {
  return new Date(t).toISOString().slice(0, 10);
}
function lastPoint(series) {
  return series.points.at(-1);
}
class SeriesBuilder {
  #byKey = /* @__PURE__ */ new Map();
  add(key, label, t, v) {
    if (!Number.isFinite(t) || !Number.isFinite(v)) return;
    let entry = this.#byKey.get(key);
    if (!entry) {
      entry = { label, points: /* @__PURE__ */ new Map(), lastOn: /* @__PURE__ */ new Set() };
      this.#byKey.set(key, entry);
    }
    entry.label = label;
    entry.points.set(t, v);
  }
  /** The position left the list after its disclosure at `t` (of value `v`). */
  leave(key, label, t, v) {
    this.add(key, label, t, v);
    this.#byKey.get(key)?.lastOn.add(t);
  }
  build(active, href) {
    return [...this.#byKey].map(([key, entry]) => {
      const current = active.get(key) ?? null;
      const points = [...entry.points].sort(([a], [b]) => a - b).map(([t, v], i, all) => {
        const final = i === all.length - 1;
        const last = final ? current === null : entry.lastOn.has(t);
        return last ? { t, v, last } : { t, v };
      });
      return { key, label: entry.label, ...href ? { href: href(key) } : {}, points, current };
    });
  }
}
function addEvent(builder, key, label, event) {
  if (event.previous) builder.add(key, label, dayMs(event.previous.date), event.previous.value);
  if (event.current) builder.add(key, label, dayMs(event.current.date), event.current.value);
  if (event.kind !== "closed") return;
  const last = event.final ?? event.previous;
  if (last) builder.leave(key, label, dayMs(last.date), last.value);
}
function issuerSeries(input, href) {
  const builder = new SeriesBuilder();
  for (const row of input.history ?? []) {
    builder.add(holderKey(row.position_holder), row.position_holder, dayMs(row.date), row.value);
  }
  const oldestFirst = [...input.events].sort((a, b) => Date.parse(a.detectedAt) - Date.parse(b.detectedAt));
  for (const event of oldestFirst) addEvent(builder, event.holderKey, event.holder, event);
  for (const [key, p] of input.active) builder.add(key, p.label, dayMs(p.date), p.value);
  const active = new Map([...input.active].map(([key, p]) => [key, p.value]));
  return builder.build(active, href);
}
function activeOf(snapshot) {
  return new Map(
    Object.entries(snapshot?.positions ?? {}).map(([key, p]) => [
      key,
      { label: p.holder, value: p.value, date: p.date }
    ])
  );
}
function holderSeries(events, active, href) {
  const builder = new SeriesBuilder();
  const oldestFirst = [...events].sort((a, b) => Date.parse(a.detectedAt) - Date.parse(b.detectedAt));
  for (const event of oldestFirst) addEvent(builder, event.issuer.id, event.issuer.name, event);
  for (const [key, p] of active) builder.add(key, p.label, dayMs(p.date), p.value);
  const values = new Map([...active].map(([key, p]) => [key, p.value]));
  return builder.build(values, href);
}
export {
  SeriesBuilder,
  activeOf,
  dayMs,
  dayOf,
  holderSeries,
  issuerSeries,
  lastPoint
};
