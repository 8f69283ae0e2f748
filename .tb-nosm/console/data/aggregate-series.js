import { aggregateHolder } from "../../jobs/registers/aggregate-alerts.js";
import { dayMs, SeriesBuilder } from "./holder-series.js";
const KEY = "aggregate";
class ChartsByThreshold {
  #charts = /* @__PURE__ */ new Map();
  /** Adds a value of the aggregate from `threshold` on `date`; a later value of one date replaces an earlier. */
  add(threshold, date, value) {
    this.#at(threshold).add(KEY, aggregateHolder(threshold), dayMs(date), value);
  }
  /** The aggregate from `threshold` stopped being published after its value on `date`: its line ends there. */
  end(threshold, date, value) {
    this.#at(threshold).leave(KEY, aggregateHolder(threshold), dayMs(date), value);
  }
  build(current) {
    return [...this.#charts].sort(([a], [b]) => a - b).map(([thresholdPercent, builder]) => {
      const now = new Map(
        current?.threshold === thresholdPercent ? [[KEY, current.value]] : []
      );
      return { thresholdPercent, series: builder.build(now) };
    });
  }
  #at(threshold) {
    let builder = this.#charts.get(threshold);
    if (!builder) {
      builder = new SeriesBuilder();
      this.#charts.set(threshold, builder);
    }
    return builder;
  }
}
function addHistory(charts, input) {
  const threshold = input.issuer?.aggregate?.thresholdPercent ?? input.registerThreshold;
  const points = [...input.issuer?.aggregateHistory ?? []].sort((a, b) => a.date.localeCompare(b.date));
  if (threshold === void 0) return;
  let previous;
  for (const point of points) {
    if (point.percent > 0) {
      charts.add(threshold, point.date, point.percent);
      previous = point;
    } else if (previous) {
      charts.end(threshold, previous.date, previous.percent);
      previous = void 0;
    }
  }
}
function addEvent(charts, event) {
  const facts = event.aggregate;
  const threshold = facts?.thresholdPercent;
  if (!facts || threshold === void 0 || facts.kind === "below-threshold-moved") return;
  if (facts.kind === "aggregate-ended") {
    if (event.previous) charts.end(threshold, event.previous.date, event.previous.value);
    return;
  }
  for (const d of [event.previous, event.current]) if (d) charts.add(threshold, d.date, d.value);
}
function aggregateCharts(input) {
  const charts = new ChartsByThreshold();
  addHistory(charts, input);
  const oldestFirst = [...input.events].sort((a, b) => a.detectedAt.localeCompare(b.detectedAt));
  for (const event of oldestFirst) addEvent(charts, event);
  const aggregate = input.issuer?.aggregate;
  if (aggregate) charts.add(aggregate.thresholdPercent, aggregate.date, aggregate.percent);
  return charts.build(aggregate && { threshold: aggregate.thresholdPercent, value: aggregate.percent });
}
export {
  aggregateCharts
};
