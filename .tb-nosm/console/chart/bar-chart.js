import { html } from "../html.js";
function barChart(bars, title) {
  const width = 560;
  const labelWidth = 190;
  const row = 22;
  const height = Math.max(1, bars.length) * row + 4;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const usable = width - labelWidth - 60;
  const rows = bars.map((b, i) => {
    const y = i * row + 2;
    const w = Math.max(b.value > 0 ? 2 : 0, Math.round(b.value / max * usable));
    return html`<text class="bar-label" x="${labelWidth - 8}" y="${y + 14}" text-anchor="end">${b.label}</text>
<rect class="bar" x="${labelWidth}" y="${y + 3}" width="${w}" height="${row - 8}"><title>${b.label}: ${b.value}</title></rect>
<text class="bar-label" x="${labelWidth + w + 6}" y="${y + 14}">${b.value}</text>`;
  });
  return html`<svg class="bars chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${title}"><title>${title}</title>${rows}</svg>`;
}
export {
  barChart
};
