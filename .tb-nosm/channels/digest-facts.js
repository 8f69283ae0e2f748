import { issuerGroupKey } from "./event-story.js";
import { formatInstant, formatPeriod } from "./time.js";
const TOP_MOVERS = 5;
const TOP_MOVERS_MIN_CHANGES = 2 * TOP_MOVERS;
function newestFirst(a, b) {
  return Date.parse(b.detectedAt) - Date.parse(a.detectedAt);
}
function topMovers(events) {
  if (events.length < TOP_MOVERS_MIN_CHANGES) return [];
  return [...events].sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta) || newestFirst(a, b)).slice(0, TOP_MOVERS);
}
function digestIssuers(events) {
  const groups = /* @__PURE__ */ new Map();
  for (const event of [...events].sort(newestFirst)) {
    const group = groups.get(issuerGroupKey(event));
    if (group) group.events.unshift(event);
    else groups.set(issuerGroupKey(event), { issuer: event.issuer, events: [event] });
  }
  return [...groups.values()];
}
function shortPeriod(period) {
  const from = formatInstant(period.from, period.timezone);
  const to = formatInstant(period.to, period.timezone);
  const zone = ` (${period.timezone})`;
  if (from === to) return `${from}${zone}`;
  const fromDay = from.replace(/ \d\d:\d\d$/, "");
  const toDay = to.replace(/ \d\d:\d\d$/, "");
  if (fromDay === toDay) return `${from} \u2013 ${to.slice(toDay.length + 1)}${zone}`;
  return formatPeriod(period);
}
export {
  TOP_MOVERS,
  TOP_MOVERS_MIN_CHANGES,
  digestIssuers,
  newestFirst,
  shortPeriod,
  topMovers
};
