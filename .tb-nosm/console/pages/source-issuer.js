import { aggregateHolder, belowThresholdHolder } from "../../jobs/registers/aggregate-alerts.js";
import { isWatched } from "../../jobs/registers/register-diff.js";
import { chartLegend, stepChart } from "../chart/step-chart.js";
import { aggregateCharts } from "../data/aggregate-series.js";
import { REGISTER_TITLES } from "../data/register-titles.js";
import { sourceIssuerRow } from "../data/source-issuers.js";
import { loadSourceViews } from "../data/source-views.js";
import { displayText, formatPercent, formatThreshold, formatTime } from "../format.js";
import { html } from "../html.js";
import { page } from "../page.js";
import { paths } from "../paths.js";
import { deltaText, fromText, holderCell, kindText, originTags, toText } from "./event-cells.js";
import { noSuchSource } from "./sources.js";
async function loadSourceIssuer(app, name, key) {
  const [view] = await loadSourceViews(app, name);
  if (!view) return "no-source";
  const issuer = view.kept?.snapshot.issuers.find((i) => i.key === key);
  const logged = await app.ctx.eventLog.recent({ issuerId: key, limit: app.settings.config.poll.eventsKept });
  const events = logged.filter((e) => e.source === name);
  if (!issuer && events.length === 0) return null;
  const issuerName = issuer?.name ?? events[0]?.issuer.name ?? key;
  return {
    view,
    key,
    name: issuerName,
    issuer,
    // With the share it was joined to: an aggregate kept under its LEI is followed by that ISIN too.
    watched: isWatched(view.config.watchlist, { key, name: issuerName, isin: issuer?.isin }),
    events,
    nowMs: app.ctx.now().getTime()
  };
}
function figureCards(row, namesHolders) {
  const aggregate = row.aggregate ? html`<div class="card"><h2>${aggregateHolder(row.aggregate.thresholdPercent)}</h2><p class="big">${formatPercent(row.aggregate.percent)}</p><p class="muted">on ${row.aggregate.date}</p></div>` : html`<div class="card"><h2>Aggregate</h2><p class="big muted">none</p><p class="muted">the register publishes no aggregate of this issuer</p></div>`;
  if (!namesHolders)
    return html`<div class="cards">${aggregate}<div class="card"><h2>Named holders</h2><p class="muted">This register names no holders, so there is no figure below the public threshold.</p></div></div>`;
  const named = html`<div class="card"><h2>Named positions (from 0.5%)</h2><p class="big">${formatPercent(row.named.sum)}</p><p class="muted">${row.named.count} ${row.named.count === 1 ? "holder" : "holders"}</p></div>`;
  const below = row.below !== void 0 && row.aggregate ? html`<div class="card"><h2>Below the public threshold</h2><p class="big">${formatPercent(row.below)}</p><p class="muted">${belowThresholdHolder(row.aggregate.thresholdPercent)}</p></div>` : html`<div class="card"><h2>Below the public threshold</h2><p class="big muted">-</p><p class="muted">${row.aggregate ? `The aggregate counts from ${formatThreshold(row.aggregate.thresholdPercent)}, as the named positions do: nothing under the public threshold is published.` : "No aggregate to subtract the named positions from."}</p></div>`;
  return html`<div class="cards">${aggregate}${named}${below}</div>`;
}
function chartPart(charts, name, nowMs) {
  if (charts.length === 0)
    return html`<p class="muted">Nothing to draw: no aggregate of this issuer has been read from this register.</p>`;
  return html`${charts.map((chart) => {
    const label = aggregateHolder(chart.thresholdPercent);
    return html`${charts.length > 1 ? html`<h3>${label}</h3>` : ""}${stepChart(chart.series, {
      now: nowMs,
      title: `${label} in ${displayText(name)}, over time`,
      axisLabel: `${label}, % of issued shares`
    })}${chartLegend(chart.series, formatPercent)}`;
  })}`;
}
function holdersPart(issuer) {
  const rows = (issuer?.positions ?? []).map(
    (p) => html`<tr><td>${displayText(p.holder)}</td><td class="num">${formatPercent(p.percent)}</td><td>${p.date}</td></tr>`
  );
  return rows.length > 0 ? html`<table><thead><tr><th>Holder</th><th class="num">Position</th><th>Position date</th></tr></thead><tbody>${rows}</tbody></table>` : html`<p class="muted">no named position in the kept read</p>`;
}
function eventsPart(data) {
  const rows = data.events.map(
    (e) => html`<tr><td>${formatTime(e.detectedAt)}</td><td>${holderCell(e)}</td><td>${kindText(e)}${originTags(e)}</td>
<td class="num">${fromText(e)}</td><td class="num">${toText(e)}</td><td class="num">${deltaText(e)}</td></tr>`
  );
  return rows.length > 0 ? html`<table><thead><tr><th>Detected</th><th>Holder</th><th>Change</th><th class="num">From</th><th class="num">To</th><th class="num">Δ</th></tr></thead><tbody>${rows}</tbody></table>
<p><a href="${paths.events({ issuer: data.key, source: data.view.config.name })}">These events with where they were delivered</a></p>` : html`<p class="muted">no change logged${data.watched ? "" : ": the source does not watch this issuer"}</p>`;
}
function renderSourceIssuer(data) {
  const { view, issuer } = data;
  const snapshot = view.kept?.snapshot;
  const namesHolders = snapshot?.namesHolders ?? false;
  const row = issuer ? sourceIssuerRow(issuer, namesHolders) : void 0;
  const charts = aggregateCharts({
    events: data.events,
    ...issuer ? { issuer } : {},
    ...snapshot?.aggregateThreshold === void 0 ? {} : { registerThreshold: snapshot.aggregateThreshold }
  });
  const source = view.config.name;
  return html`<p class="muted">${data.key} · <a href="${paths.source(source)}">${source}</a>: ${REGISTER_TITLES[view.config.kind]} · kept read ${formatTime(view.kept?.at)}${data.watched ? "" : " \xB7 not watched: its changes are not told"}</p>
${row ? figureCards(row, namesHolders) : html`<p class="notice">The last good read of ${source} no longer lists this issuer: what follows is from the event log.</p>`}
<h2>Aggregate over time</h2>
${chartPart(charts, data.name, data.nowMs)}
${namesHolders ? html`<h2>Named holders</h2>${holdersPart(issuer)}` : ""}
<h2>Changes read from ${source}</h2>
${eventsPart(data)}`;
}
function noSuchIssuer(name, key) {
  return page(
    { title: "No such issuer", section: "/sources" },
    html`<p>The last good read of <a href="${paths.source(name)}">${name}</a> does not list <code>${key}</code>, and no change of it is logged.</p>`,
    404
  );
}
async function sourceIssuerPage(ctx, name, key) {
  const data = await loadSourceIssuer(ctx.app, name, key);
  if (data === "no-source") return noSuchSource(name);
  if (data === null) return noSuchIssuer(name, key);
  return page(
    { title: `${displayText(data.name)} in ${name}`, section: "/sources" },
    renderSourceIssuer(data)
  );
}
export {
  loadSourceIssuer,
  renderSourceIssuer,
  sourceIssuerPage
};
