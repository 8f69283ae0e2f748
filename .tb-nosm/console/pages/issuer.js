import { isSnapshotCorruptError } from "../../state/snapshot-corrupt-error.js";
import { chartLegend, stepChart } from "../chart/step-chart.js";
import { activeOf, dayOf, issuerSeries, lastPoint } from "../data/holder-series.js";
import { registerStore } from "../data/source-views.js";
import { displayText, formatCount, formatPercent, formatTime } from "../format.js";
import { html } from "../html.js";
import { page } from "../page.js";
import { paths } from "../paths.js";
import { deltaText, fromText, holderCell, kindText, originTags, toText } from "./event-cells.js";
function spendableToday(usage) {
  return Math.max(0, usage.day.left - usage.reserve);
}
const RECENT_EVENTS = 20;
async function loadIssuer(app, id) {
  let snapshot = null;
  let snapshotProblem = null;
  try {
    snapshot = await app.ctx.snapshots.get(id);
  } catch (error) {
    if (!isSnapshotCorruptError(error)) throw error;
    snapshotProblem = "The stored snapshot cannot be read; `shortwatch resume <issuer>` re-baselines it.";
  }
  const { config } = app.settings;
  const events = await app.ctx.eventLog.recent({ issuerId: id, limit: config.poll.eventsKept });
  const directory = (await app.ctx.directory.load())?.issuers ?? [];
  const listed = directory.find((i) => i.svc_issuer_id === id);
  if (!snapshot && !listed && events.length === 0 && !snapshotProblem) return null;
  const dayLeft = config.upstream === void 0 ? null : spendableToday(await app.ctx.budget.usage());
  return {
    registers: await registersListing(app, id, events),
    id,
    name: snapshot?.issuerName ?? listed?.name ?? events[0]?.issuer.name ?? id,
    snapshot,
    snapshotProblem,
    events,
    history: null,
    dayLeft,
    nowMs: app.ctx.now().getTime()
  };
}
async function registersListing(app, id, events) {
  const store = registerStore(app);
  const listed = await Promise.all(
    app.settings.config.sources.map(async ({ name }) => {
      const kept = await store.lastSnapshot(name);
      const known = kept?.snapshot.issuers.some((i) => i.key === id) || events.some((e) => e.source === name);
      return known ? [name] : [];
    })
  );
  return listed.flat();
}
function eventRow(e) {
  return html`<tr><td>${formatTime(e.detectedAt)}</td><td>${holderCell(e)}</td><td>${kindText(e)}${originTags(e)}</td>
<td class="num">${fromText(e)}</td><td class="num">${toText(e)}</td><td class="num">${deltaText(e)}</td></tr>`;
}
function registersPart(data) {
  const names = data.registers ?? [];
  if (names.length === 0) return "";
  return html`<p>In the registers: ${names.map((name, i) => html`${i > 0 ? ", " : ""}<a href="${paths.sourceIssuer(name, data.id)}">${name}</a>`)} <span class="muted">(aggregates and named holders as each register publishes them; not drawn here)</span></p>`;
}
const NO_UPSTREAM_HISTORY = html`<p class="muted">The full history (status=all) comes from the upstream API, which this deployment does not use (registers only).</p>`;
function historyPart(data, csrf) {
  if (data.dayLeft === null) return NO_UPSTREAM_HISTORY;
  if (Array.isArray(data.history))
    return html`<p class="notice">Full history loaded: ${data.history.length} disclosures (status=all), drawn with the event log.</p>`;
  const why = typeof data.history === "string" ? html`<p class="notice bad">${data.history}</p>` : "";
  return html`${why}<form method="post" action="${paths.issuerHistory(data.id)}"><input type="hidden" name="csrf" value="${csrf}">
<button${data.dayLeft <= 0 ? html` disabled` : ""}>Load the full history (status=all)…</button> <span class="muted">asks first; spends 1 upstream request; ${formatCount(data.dayLeft)} left today beyond the reserve</span></form>`;
}
function holderTables(series) {
  const row = (s, value, date) => html`<tr><td><a href="${paths.holder(s.key)}">${displayText(s.label)}</a></td><td class="num">${value === void 0 ? "-" : formatPercent(value)}</td><td>${date}</td></tr>`;
  const rows = (list) => list.map((s) => {
    const last = lastPoint(s);
    return row(s, last?.v, last ? dayOf(last.t) : "-");
  });
  const held = series.filter((s) => s.current !== null);
  const left = series.filter((s) => s.current === null);
  return html`<h2>Current holders</h2>
${held.length > 0 ? html`<table><thead><tr><th>Holder</th><th class="num">Position</th><th>Disclosed on</th></tr></thead><tbody>${rows(held)}</tbody></table>` : html`<p class="muted">no disclosed short position</p>`}
${left.length > 0 ? html`<h2>Off the list</h2><p class="muted">Below 0.5% (or no longer disclosed) since these last listed values; the chart ends each line there.</p><table><thead><tr><th>Holder</th><th class="num">Last listed</th><th>Disclosed on</th></tr></thead><tbody>${rows(left)}</tbody></table>` : ""}`;
}
function renderIssuer(data, csrf) {
  const active = activeOf(data.snapshot);
  const history = Array.isArray(data.history) ? data.history : void 0;
  const events = data.events.filter((e) => e.source === void 0);
  const series = issuerSeries({ events, active, history }, paths.holder).sort((a, b) => (b.current ?? -1) - (a.current ?? -1) || (lastPoint(b)?.v ?? 0) - (lastPoint(a)?.v ?? 0));
  const total = [...active.values()].reduce((sum, p) => sum + p.value, 0);
  return html`<p class="muted">${displayText(data.id)} · ${active.size} holders · total disclosed short ${formatPercent(total)} · last poll ${formatTime(data.snapshot?.polledAt)}</p>
${data.snapshotProblem ? html`<p class="notice bad">${data.snapshotProblem}</p>` : ""}
${registersPart(data)}
<h2>Disclosed positions over time</h2>
${series.length > 0 ? html`${stepChart(series, { now: data.nowMs, title: `Disclosed short positions in ${displayText(data.name)}, by holder` })}${chartLegend(series, formatPercent)}` : html`<p class="muted">Nothing to draw yet: no position has been seen.</p>`}
${historyPart(data, csrf)}
${holderTables(series)}
<h2>Recent changes</h2>
${data.events.length > 0 ? html`<table><thead><tr><th>Detected</th><th>Holder</th><th>Change</th><th class="num">From</th><th class="num">To</th><th class="num">Δ</th></tr></thead><tbody>${data.events.slice(0, RECENT_EVENTS).map(eventRow)}</tbody></table>` : html`<p class="muted">no change logged</p>`}
<p><a href="${paths.events({ issuer: data.id })}">Every logged event of this issuer, with where it was delivered</a></p>`;
}
function notFound(id) {
  return page(
    { title: "No such issuer", section: "/issuers" },
    html`<p>No issuer <code>${id}</code> is known: not in the issuer list, never polled, no event logged.</p>`,
    404
  );
}
async function issuerPage(ctx, id) {
  const data = await loadIssuer(ctx.app, id);
  if (!data) return notFound(id);
  return page({ title: displayText(data.name), section: "/issuers" }, renderIssuer(data, ctx.csrf));
}
export {
  NO_UPSTREAM_HISTORY,
  issuerPage,
  loadIssuer,
  notFound,
  renderIssuer,
  spendableToday
};
