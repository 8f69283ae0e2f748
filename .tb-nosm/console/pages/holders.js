import { seenBy } from "../../positions/as-of.js";
import { HolderIdentities } from "../../positions/holder-identity.js";
import { parseInstant } from "../../record/time-range.js";
import { GLOBAL_EVENTS_FACTOR } from "../../state/retention.js";
import { chartLegend, stepChart } from "../chart/step-chart.js";
import { holderSeries } from "../data/holder-series.js";
import { positionsAsOf } from "../data/positions-as-of.js";
import { allPositionsByHolder } from "../data/watched-positions.js";
import { displayText, formatPercent, formatTime } from "../format.js";
import { html } from "../html.js";
import { page } from "../page.js";
import { paths } from "../paths.js";
import { deltaText, fromText, issuerLink, kindText, originTags, toText } from "./event-cells.js";
async function holdersPage(ctx) {
  const identities = holderIdentities(ctx.app);
  const byHolder = await allPositionsByHolder(ctx.app, identities);
  const rows = [...byHolder].map(([key, list]) => ({ key, list, total: list.reduce((sum, p) => sum + p.value, 0) })).sort((a, b) => b.list.length - a.list.length || b.total - a.total);
  const body = html`<p class="muted">${rows.length} holders with a disclosed short in a watched issuer.</p>
<table><thead><tr><th>Holder</th><th class="num">Issuers</th><th>Largest positions</th></tr></thead><tbody>${rows.map(
    (r) => html`<tr><td><a href="${paths.holder(r.key)}">${displayText(identities.nameOf(r.key) ?? r.list[0]?.holder ?? r.key)}</a></td><td class="num">${r.list.length}</td>
<td>${[...r.list].sort((a, b) => b.value - a.value).slice(0, 4).map(
      (p, i) => html`${i > 0 ? "; " : ""}${displayText(p.issuerName)} ${formatPercent(p.value)}`
    )}</td></tr>`
  )}</tbody></table>`;
  return page({ title: "Holders", section: "/holders" }, body);
}
function positionHref(p) {
  return p.source === void 0 ? paths.issuer(p.issuerId) : paths.sourceIssuer(p.source, p.issuerId);
}
function renderHolder(data) {
  const active = new Map(
    data.positions.filter((p) => p.source === void 0).map((p) => [p.issuerId, { label: p.issuerName, value: p.value, date: p.date }])
  );
  const upstream = data.events.filter((e) => e.source === void 0);
  const series = holderSeries(upstream, active, paths.issuer).sort(
    (a, b) => (b.current ?? -1) - (a.current ?? -1)
  );
  const rows = [...data.positions].sort((a, b) => b.value - a.value).map(
    (p) => html`<tr><td><a href="${positionHref(p)}">${displayText(p.issuerName)}</a>${p.source ? html` <span class="muted">register ${p.source}</span>` : ""}</td><td class="num">${formatPercent(p.value)}</td><td>${p.date}</td></tr>`
  );
  const changes = data.events.map(
    (e) => html`<tr><td>${formatTime(e.detectedAt)}</td><td>${issuerLink(e)}</td><td>${kindText(e)}${originTags(e)}</td>
<td class="num">${fromText(e)}</td><td class="num">${toText(e)}</td><td class="num">${deltaText(e)}</td></tr>`
  );
  const total = data.positions.reduce((sum, p) => sum + p.value, 0);
  return html`<p class="muted">Short in ${data.positions.length} watched issuers now, ${formatPercent(total)} in all.</p>
<h2>Positions over time</h2>
${series.length > 0 ? html`${stepChart(series, { now: data.nowMs, title: `Disclosed short positions of ${displayText(data.name)}, by issuer` })}${chartLegend(series, formatPercent)}` : html`<p class="muted">nothing to draw</p>`}
<h2>Short now</h2>
${rows.length > 0 ? html`<table><thead><tr><th>Issuer</th><th class="num">Position</th><th>Disclosed on</th></tr></thead><tbody>${rows}</tbody></table>` : html`<p class="muted">no disclosed short position in a watched issuer</p>`}
<h2>How it moved</h2>
${changes.length > 0 ? html`<table><thead><tr><th>Detected</th><th>Issuer</th><th>Change</th><th class="num">From</th><th class="num">To</th><th class="num">Δ</th></tr></thead><tbody>${changes}</tbody></table>` : html`<p class="muted">no change logged</p>`}
<p><a href="${paths.events({ holder: data.key })}">These events with where they were delivered</a></p>`;
}
function asOfOf(ctx) {
  const text = ctx.query.get("asOf")?.trim() ?? "";
  return text === "" ? void 0 : parseInstant(text, ctx.app.ctx.now().getTime(), true);
}
function groupByIdentity(positions, identities) {
  const byHolder = /* @__PURE__ */ new Map();
  for (const position of positions) {
    const key = identities.keyOf(position);
    byHolder.set(key, [...byHolder.get(key) ?? [], position]);
  }
  return byHolder;
}
function holderIdentities(app) {
  return new HolderIdentities(app.settings.config.holders.aliases);
}
async function holderPage(ctx, key) {
  const { app } = ctx;
  const identities = holderIdentities(app);
  const asOf = asOfOf(ctx);
  const byHolder = asOf === void 0 ? await allPositionsByHolder(app, identities) : groupByIdentity(await positionsAsOf(app, asOf), identities);
  const limit = app.settings.config.poll.eventsKept * GLOBAL_EVENTS_FACTOR;
  const logged = (await app.ctx.eventLog.recent({ limit })).filter(
    (e) => e.aggregate === void 0 && (asOf === void 0 || seenBy(e, asOf))
  );
  const named = [...byHolder.values()].flat().find((p) => p.holderKey === key) ?? logged.find((e) => e.holderKey === key);
  const identity = named === void 0 ? identities.resolve(key) : identities.keyOf(named);
  const positions = byHolder.get(identity) ?? [];
  const events = logged.filter((e) => identities.keyOf(e) === identity);
  if (positions.length === 0 && events.length === 0) {
    return page(
      { title: "No such holder", section: "/holders" },
      html`<p>No watched issuer has a position or a logged change of <code>${key}</code>.</p>`,
      404
    );
  }
  const name = identities.nameOf(identity) ?? positions[0]?.holder ?? events[0]?.holder ?? key;
  const data = { key: identity, name, positions, events, nowMs: asOf ?? app.ctx.now().getTime() };
  const note = asOf === void 0 ? "" : html`<p>As of ${new Date(asOf).toISOString()}: what shortwatch had seen by then, whatever date the register gives.</p>`;
  return page({ title: displayText(name), section: "/holders" }, html`${note}${renderHolder(data)}`);
}
export {
  holderPage,
  holdersPage,
  renderHolder
};
