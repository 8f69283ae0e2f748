import { collectStatus } from "../../ops/status.js";
import { loadSourceViews } from "../data/source-views.js";
import { displayText, formatAge, formatPercent, formatTime } from "../format.js";
import { html } from "../html.js";
import { page } from "../page.js";
import { paths } from "../paths.js";
import { issuerTable } from "./sources.js";
const TOP_HOLDERS = 5;
async function loadIssuers(app) {
  const { issuers } = await collectStatus(app);
  const { snapshots } = await app.ctx.snapshots.readMany(issuers.map((i) => i.id));
  return { issuers, snapshots, nowMs: app.ctx.now().getTime(), sources: await loadSourceViews(app) };
}
function holdersCell(snapshot) {
  if (!snapshot) return html`<span class="muted">not polled yet</span>`;
  const held = Object.entries(snapshot.positions).sort(([, a], [, b]) => b.value - a.value);
  if (held.length === 0) return html`<span class="muted">no disclosed short</span>`;
  const shown = held.slice(0, TOP_HOLDERS).map(
    ([key, p]) => html`<a href="${paths.holder(key)}">${displayText(p.holder)}</a> ${formatPercent(p.value)}`
  );
  const more = held.length > TOP_HOLDERS ? html`, and ${held.length - TOP_HOLDERS} more` : "";
  return html`${shown.flatMap((item, i) => i === 0 ? [item] : [html`; `, item])}${more}`;
}
function sourcePart(view) {
  if (view.watched.length === 0) return "";
  const { name } = view.config;
  return html`<h2>Register <a href="${paths.source(name)}">${name}</a></h2>
<p class="muted">${view.watched.length} watched issuers in its last good read.</p>${issuerTable(view, view.watched)}`;
}
function renderIssuers(data) {
  const rows = data.issuers.map((i) => {
    const snapshot = data.snapshots.get(i.id);
    const health = i.health === "ok" ? "ok" : html`<span class="${i.health === "due" ? "warn" : "bad"}">${i.health}</span>`;
    return html`<tr><td><a href="${paths.issuer(i.id)}">${displayText(i.name)}</a><br><span class="muted">${displayText(i.id)}</span></td>
<td>${holdersCell(snapshot)}</td><td class="num">${i.lastPoll === null ? "-" : i.holders}</td><td class="num">${i.lastPoll === null ? "-" : formatPercent(i.totalShort)}</td>
<td>${formatAge(i.lastPoll, data.nowMs) || "never"}<br><span class="muted">${i.lastPoll ? formatTime(i.lastPoll) : ""}</span></td><td>${health}${i.problem ? html`<br><span class="muted">${i.problem}</span>` : ""}</td></tr>`;
  });
  const sources = data.sources.map(sourcePart);
  if (data.issuers.length === 0 && data.sources.length > 0) return html`${sources}`;
  return html`<p class="muted">${data.issuers.length} issuers on the watchlist. Holders are told apart as the alerts tell them (two spellings of one fund are one holder).</p>
<table><thead><tr><th>Issuer</th><th>Current holders (largest first)</th><th class="num">Holders</th><th class="num">Total short</th><th>Last poll</th><th>Polling</th></tr></thead>
<tbody>${rows}</tbody></table>${sources}`;
}
async function issuersPage(ctx) {
  return page(
    { title: "Issuers", section: "/issuers", refreshSeconds: 30 },
    renderIssuers(await loadIssuers(ctx.app))
  );
}
export {
  issuersPage,
  loadIssuers,
  renderIssuers
};
