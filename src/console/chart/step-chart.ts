import type { Series } from '../data/holder-series.js';
import { html, type SafeHtml, trusted } from '../html.js';
import { linear, timeLabel, timeTicks, valueTicks } from './scale.js';

/** How a chart is drawn. */
export interface ChartOptions {
  /** The first instant shown (epoch ms); default: the earliest point. */
  from?: number;
  /** The last instant shown; default: the latest end. */
  to: number;
  /** What the chart is of, for screen readers. */
  title: string;
  width?: number;
  height?: number;
}

const MARGIN = { top: 12, right: 16, bottom: 28, left: 52 };
const DAY_MS = 86_400_000;

/** Series colour and dash classes: 10 colours (CSS variables, light and dark), then dash patterns. */
export function seriesClass(index: number): string {
  return `s${index % 10} d${Math.floor(index / 10) % 5}`;
}

const n = (x: number) => (Math.round(x * 10) / 10).toString();

/** A step path: each value holds until the next point; a 0 (closed) ends the line until it reopens. */
function stepPath(series: Series, x: (t: number) => number, y: (v: number) => number, from: number): string {
  let d = '';
  let open = false;
  let lastY = 0;
  for (const p of series.points) {
    const px = n(x(Math.max(p.t, from)));
    if (!open) {
      if (p.v === 0) continue;
      d += `M${px} ${n(y(p.v))}`;
      open = true;
    } else {
      d += `H${px}V${n(y(p.v))}`;
    }
    lastY = p.v;
    if (p.v === 0) open = false;
  }
  if (open && lastY !== 0) d += `H${n(x(series.end))}`;
  return d;
}

function axes(
  xTicks: number[],
  yTicks: number[],
  x: (t: number) => number,
  y: (v: number) => number,
  long: boolean,
  width: number,
  height: number,
): string {
  let out = '';
  for (const v of yTicks) {
    const py = n(y(v));
    out += `<line class="grid" x1="${MARGIN.left}" x2="${width - MARGIN.right}" y1="${py}" y2="${py}"/>`;
    out += `<text class="tick" x="${MARGIN.left - 6}" y="${py}" text-anchor="end" dominant-baseline="middle">${v}%</text>`;
  }
  for (const t of xTicks) {
    const px = n(x(t));
    out += `<line class="grid" x1="${px}" x2="${px}" y1="${MARGIN.top}" y2="${height - MARGIN.bottom}"/>`;
    out += `<text class="tick" x="${px}" y="${height - MARGIN.bottom + 16}" text-anchor="middle">${timeLabel(t, long)}</text>`;
  }
  return out;
}

/**
 * A server-rendered SVG step chart of disclosed positions: one line per series, value axis in %, date
 * axis, colours from CSS variables (so it follows light and dark mode), each line titled with its label.
 * Labels go through `html` (escaped); numbers are formatted here.
 */
export function stepChart(series: readonly Series[], options: ChartOptions): SafeHtml {
  const width = options.width ?? 880;
  const height = options.height ?? 320;
  const starts = series.flatMap((s) => (s.points[0] ? [s.points[0].t] : []));
  const from = options.from ?? (starts.length > 0 ? Math.min(...starts) : options.to - 30 * DAY_MS);
  const to = Math.max(options.to, from + DAY_MS);
  let max = 0;
  for (const s of series) for (const p of s.points) if (p.v > max) max = p.v;
  const yTicks = valueTicks(Math.max(max, 0.5));
  const top = yTicks.at(-1) ?? 1;
  const x = linear(from, to, MARGIN.left, width - MARGIN.right);
  const y = linear(0, top, height - MARGIN.bottom, MARGIN.top);
  const long = to - from >= 75 * DAY_MS;
  const lines = series.map(
    (s, i) =>
      html`<path class="line ${seriesClass(i)}" d="${stepPath(s, x, y, from)}"><title>${s.label}</title></path>`,
  );
  return html`<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${options.title}" preserveAspectRatio="xMidYMid meet">
<title>${options.title}</title>
${trusted(axes(timeTicks(from, to), yTicks, x, y, long, width, height))}
<line class="axis" x1="${MARGIN.left}" x2="${width - MARGIN.right}" y1="${height - MARGIN.bottom}" y2="${height - MARGIN.bottom}"/>
${lines}
</svg>`;
}

/** The chart's legend: a swatch of each line's colour and dash, its label (a link when it has one), its value now. */
export function chartLegend(series: readonly Series[], format: (v: number) => string): SafeHtml {
  const items = series.map(
    (
      s,
      i,
    ) => html`<li><svg class="swatch" viewBox="0 0 24 8" aria-hidden="true"><line class="line ${seriesClass(i)}" x1="0" x2="24" y1="4" y2="4"/></svg>
${s.href ? html`<a href="${s.href}">${s.label}</a>` : s.label} <span class="muted">${s.current === null ? 'closed' : format(s.current)}</span></li>`,
  );
  return html`<ul class="legend">${items}</ul>`;
}
