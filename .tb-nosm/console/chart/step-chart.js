import { DAY_MS } from "../../time/units.js";
import { dayOf } from "../data/holder-series.js";
import { html, trusted } from "../html.js";
import { linear, timeLabel, timeTicks, valueTicks } from "./scale.js";
const MARGIN = { top: 12, right: 16, bottom: 28, left: 52 };
const LABELLED_TOP = 30;
const NEAR_SHARE = 0.25;
const NEAR_MS = 14 * DAY_MS;
function seriesClass(index) {
  return `s${index % 10} d${Math.floor(index / 10) % 5}`;
}
const n = (x) => (Math.round(x * 10) / 10).toString();
function timeDomain(series, now, from) {
  const ts = series.flatMap((s) => s.points.map((p) => p.t));
  const last = ts.length > 0 ? Math.max(...ts) : now;
  const first = from ?? (ts.length > 0 ? Math.min(...ts) : now - 30 * DAY_MS);
  const span = Math.max(last - first, DAY_MS);
  if (now - last <= Math.max(NEAR_MS, span * NEAR_SHARE)) {
    return { from: first, to: Math.max(now, last, first + DAY_MS), farToday: false };
  }
  return { from: first, to: last + Math.max(2 * DAY_MS, span * 0.06), farToday: true };
}
function stepPath(series, x, y, to) {
  let d = "";
  let open = false;
  const ends = [];
  for (const p of series.points) {
    const px = n(x(p.t));
    const py = n(y(p.v));
    d += open ? `H${px}V${py}` : `M${px} ${py}`;
    open = !p.last;
    if (p.last) ends.push({ x: px, y: py, p });
  }
  if (open) d += `H${n(x(to))}`;
  return { d, ends };
}
function offMarkers(series, ends, cls) {
  return ends.map(
    (e) => html`<circle class="off ${cls}" cx="${e.x}" cy="${e.y}" r="3.5"><title>${series.label}: off the list after ${dayOf(e.p.t)} (last listed ${e.p.v}%)</title></circle>`
  );
}
function axes(xTicks, yTicks, x, y, long, box) {
  const { width, height, top } = box;
  let out = "";
  for (const v of yTicks) {
    const py = n(y(v));
    out += `<line class="grid" x1="${MARGIN.left}" x2="${width - MARGIN.right}" y1="${py}" y2="${py}"/>`;
    out += `<text class="tick" x="${MARGIN.left - 6}" y="${py}" text-anchor="end" dominant-baseline="middle">${v}%</text>`;
  }
  for (const t of xTicks) {
    const px = n(x(t));
    out += `<line class="grid" x1="${px}" x2="${px}" y1="${top}" y2="${height - MARGIN.bottom}"/>`;
    out += `<text class="tick" x="${px}" y="${height - MARGIN.bottom + 16}" text-anchor="middle">${timeLabel(t, long)}</text>`;
  }
  return out;
}
function todayMarker(now, width, top) {
  const label = `today ${timeLabel(now, false)} ${new Date(now).getUTCFullYear()} \u2192`;
  return html`<text class="tick today" x="${width - MARGIN.right}" y="${top - 2}" text-anchor="end">${label}</text>`;
}
function axisTitle(label) {
  if (label === void 0) return "";
  return html`<text class="axis-label" x="${MARGIN.left - 44}" y="14">${label}</text>`;
}
function stepChart(series, options) {
  const width = options.width ?? 880;
  const height = options.height ?? 320;
  const { from, to, farToday } = timeDomain(series, options.now, options.from);
  let max = 0;
  for (const s of series) for (const p of s.points) if (p.v > max) max = p.v;
  const yTicks = valueTicks(Math.max(max, 0.5));
  const topValue = yTicks.at(-1) ?? 1;
  const top = options.axisLabel === void 0 ? MARGIN.top : LABELLED_TOP;
  const x = linear(from, to, MARGIN.left, width - MARGIN.right);
  const y = linear(0, topValue, height - MARGIN.bottom, top);
  const long = to - from >= 75 * DAY_MS;
  const lines = series.map((s, i) => {
    const { d, ends } = stepPath(s, x, y, to);
    return html`<path class="line ${seriesClass(i)}" d="${d}"><title>${s.label}</title></path>${offMarkers(s, ends, seriesClass(i))}`;
  });
  return html`<div class="chart-box"><svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${options.title}" preserveAspectRatio="xMidYMid meet">
<title>${options.title}</title>
${axisTitle(options.axisLabel)}${trusted(axes(timeTicks(from, to), yTicks, x, y, long, { width, height, top }))}
<line class="axis" x1="${MARGIN.left}" x2="${width - MARGIN.right}" y1="${height - MARGIN.bottom}" y2="${height - MARGIN.bottom}"/>
${lines}${farToday ? todayMarker(options.now, width, top) : ""}
</svg></div>`;
}
function chartLegend(series, format) {
  const items = series.map(
    (s, i) => html`<li><svg class="swatch" viewBox="0 0 24 8" aria-hidden="true"><line class="line ${seriesClass(i)}" x1="0" x2="24" y1="4" y2="4"/></svg>
${s.href ? html`<a href="${s.href}">${s.label}</a>` : s.label} <span class="muted">${s.current === null ? `off the list (last listed ${format(s.points.at(-1)?.v ?? 0)})` : format(s.current)}</span></li>`
  );
  return html`<ul class="legend">${items}</ul>`;
}
export {
  chartLegend,
  seriesClass,
  stepChart,
  timeDomain
};
