import { formatDuration } from "../../config/duration.js";
import { aggregateHolder } from "../../jobs/registers/aggregate-alerts.js";
import { REGISTER_TITLES } from "../data/register-titles.js";
import { countsBelowPublic } from "../data/source-issuers.js";
import { loadSourceViews } from "../data/source-views.js";
import {
  displayText,
  formatAge,
  formatCount,
  formatPercent,
  formatSourceUrl,
  formatThreshold,
  formatTime
} from "../format.js";
import { html } from "../html.js";
import { page } from "../page.js";
import { paths } from "../paths.js";
const LISTED = 15;
function healthText(status) {
  switch (status.state) {
    case "read":
      return status.held === void 0 ? html`<span class="ok">read</span>` : html`<span class="warn">read, held back</span><br><span class="muted">${status.held}</span>`;
    case "not-read":
      return html`<span class="bad">not read</span><br><span class="muted">${status.reason ?? ""}</span>`;
    case "stale":
      return html`<span class="bad">stale</span><br><span class="muted">no good read for three intervals${status.reason ? `; last: ${status.reason}` : ""}</span>`;
    case "never":
      return html`<span class="warn">never read</span>`;
  }
}
function summaryRow(view, nowMs) {
  const { config, status, kept } = view;
  const good = status.lastGoodAt;
  return html`<tr><td><a href="${paths.source(config.name)}">${config.name}</a></td>
<td>${REGISTER_TITLES[config.kind]}<br><span class="muted">${config.kind} · every ${formatDuration(config.interval)}</span></td>
<td>${healthText(status)}</td><td>${good ? html`${formatAge(good, nowMs)}<br><span class="muted">${formatTime(good)}</span>` : "never"}</td>
<td class="num">${kept ? formatCount(kept.snapshot.issuers.length) : "-"}</td><td class="num">${kept ? formatCount(view.watched.length) : "-"}</td></tr>`;
}
function aggregateCell(row) {
  if (!row.aggregate) return html`<span class="muted">none published</span>`;
  return html`${formatPercent(row.aggregate.percent)} <span class="muted">from ${formatThreshold(row.aggregate.thresholdPercent)} · ${row.aggregate.date}</span>`;
}
function issuerTable(view, rows) {
  const snapshot = view.kept?.snapshot;
  if (snapshot?.content === "scope") {
    return html`<table><thead><tr><th>Share in scope</th><th>Key</th></tr></thead><tbody>${rows.map(
      (r) => html`<tr><td><a href="${paths.sourceIssuer(view.config.name, r.key)}">${displayText(r.name)}</a></td><td>${r.key}</td></tr>`
    )}</tbody></table>`;
  }
  const threshold = snapshot?.aggregateThreshold;
  const named = snapshot?.namesHolders === true;
  const below = named && countsBelowPublic(threshold === void 0 ? void 0 : { thresholdPercent: threshold });
  const body = rows.map(
    (r) => html`<tr><td><a href="${paths.sourceIssuer(view.config.name, r.key)}">${displayText(r.name)}</a><br><span class="muted">${r.key}</span></td>
<td class="num">${aggregateCell(r)}</td>${named ? html`<td class="num">${r.named.count === 0 ? "-" : `${r.named.count} \xB7 ${formatPercent(r.named.sum)}`}</td>` : ""}${below ? html`<td class="num">${r.below === void 0 ? "-" : formatPercent(r.below)}</td>` : ""}</tr>`
  );
  return html`<table><thead><tr><th>Issuer</th><th class="num">${threshold === void 0 ? "Aggregate" : aggregateHolder(threshold)}</th>${named ? html`<th class="num">Named holders · sum</th>` : ""}${below ? html`<th class="num">Below the public threshold</th>` : ""}</tr></thead>
<tbody>${body}</tbody></table>`;
}
function watchedPart(view) {
  const { name } = view.config;
  if (!view.kept) return html`<h2>${name}</h2><p class="muted">Not read yet: nothing kept.</p>`;
  if (view.watched.length === 0)
    return html`<h2>${name}</h2><p class="muted">None of the ${formatCount(view.kept.snapshot.issuers.length)} issuers it lists is watched.</p>`;
  const withAggregates = view.watched.filter((r) => r.aggregate);
  const shown = (withAggregates.length > 0 ? withAggregates : view.watched).slice(0, LISTED);
  const what = view.kept.snapshot.content === "scope" ? "in scope, by name" : withAggregates.length > 0 ? "with the largest aggregates" : "with the largest named sums";
  return html`<h2>${name}: watched issuers${view.watched.length > shown.length ? ` ${what}` : ""}</h2>
${issuerTable(view, shown)}
<p><a href="${paths.source(name)}">All ${formatCount(view.watched.length)} watched issuers of ${name}</a></p>`;
}
function renderSources(views, nowMs) {
  if (views.length === 0)
    return html`<p class="muted">No register source is configured (<code>sources:</code> in the config; docs/sources.md).</p>`;
  return html`<p class="muted">${views.length} register ${views.length === 1 ? "source" : "sources"}, each read whole every interval (an unchanged file costs a 304). Issuers listed are those of the last good read; watched, those its <code>watchlist</code> follows.</p>
<table><thead><tr><th>Source</th><th>Register</th><th>Health</th><th>Last good read</th><th class="num">Issuers listed</th><th class="num">Watched</th></tr></thead>
<tbody>${views.map((v) => summaryRow(v, nowMs))}</tbody></table>
${views.map(watchedPart)}`;
}
async function sourcesPage(ctx) {
  const views = await loadSourceViews(ctx.app);
  return page(
    { title: "Sources", section: "/sources", refreshSeconds: 30 },
    renderSources(views, ctx.app.ctx.now().getTime())
  );
}
function noSuchSource(name) {
  return page(
    { title: "No such source", section: "/sources" },
    html`<p>No register source <code>${name}</code> is configured. <a href="/sources">Sources</a></p>`,
    404
  );
}
function renderSource(view, nowMs) {
  const kept = view.kept;
  return html`<p class="muted">${REGISTER_TITLES[view.config.kind]} · <code>${formatSourceUrl(view.config.url)}</code></p>
<table><thead><tr><th>Source</th><th>Register</th><th>Health</th><th>Last good read</th><th class="num">Issuers listed</th><th class="num">Watched</th></tr></thead>
<tbody>${summaryRow(view, nowMs)}</tbody></table>
${kept ? html`<p class="muted">Issuers as the last file read in full listed them (${formatTime(kept.at)}${kept.snapshot.publishedOn ? `, published on ${kept.snapshot.publishedOn}` : ""}); an unchanged file since keeps them.</p>` : ""}
${kept && view.watched.length > 0 ? issuerTable(view, view.watched) : html`<p class="muted">No watched issuer in the kept read.</p>`}`;
}
async function sourcePage(ctx, name) {
  const [view] = await loadSourceViews(ctx.app, name);
  if (!view) return noSuchSource(name);
  return page(
    { title: `Source ${name}`, section: "/sources", refreshSeconds: 60 },
    renderSource(view, ctx.app.ctx.now().getTime())
  );
}
export {
  healthText,
  issuerTable,
  noSuchSource,
  renderSource,
  renderSources,
  sourcePage,
  sourcesPage
};
