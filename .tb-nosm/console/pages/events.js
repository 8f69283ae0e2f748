import { seenBy } from "../../positions/as-of.js";
import { HolderIdentities } from "../../positions/holder-identity.js";
import { EVENT_KINDS, holderQueryMatches } from "../../positions/index.js";
import { parseInstant } from "../../record/time-range.js";
import { DeliveryRecord } from "../../state/delivery-record.js";
import { GLOBAL_EVENTS_FACTOR } from "../../state/retention.js";
import { HOUR_MS } from "../../time/units.js";
import { outboxState } from "../data/deliveries.js";
import { eventLines, indexOutcomes } from "../data/event-outcomes.js";
import { recordedMessages } from "../data/record-messages.js";
import { formatDelta, formatPercent, formatTime } from "../format.js";
import { html } from "../html.js";
import { page } from "../page.js";
import { deltaText, fromText, holderCell, issuerLink, kindText, originTags, toText } from "./event-cells.js";
const API_SOURCE = "API";
const SHOWN = 200;
const CLOCK_SLACK_MS = HOUR_MS;
const RECORD_ROWS_READ = 1e4;
function filterOf(query, nowMs = 0) {
  const get = (name) => (query.get(name) ?? "").trim();
  const asOf = get("asOf");
  const asOfMs = asOf === "" ? void 0 : parseInstant(asOf, nowMs, true);
  return {
    issuer: get("issuer"),
    holder: get("holder"),
    kind: get("kind"),
    channel: get("channel"),
    source: get("source"),
    ...asOf === "" ? {} : { asOf },
    ...asOfMs === void 0 ? {} : { asOfMs }
  };
}
function matches(logged, f, holders = HolderIdentities.none) {
  const { event } = logged;
  if (f.issuer && event.issuer.id !== f.issuer) return false;
  if (f.holder && !holderPasses(f.holder, event, holders)) return false;
  if (f.kind && event.kind !== f.kind) return false;
  if (f.channel && !logged.routes.some((r) => r.channel === f.channel && r.verdict !== "skip")) return false;
  if (f.source && (event.source ?? API_SOURCE) !== f.source) return false;
  if (f.asOfMs !== void 0 && !seenBy(event, f.asOfMs)) return false;
  return true;
}
function holderPasses(holder, event, holders) {
  if (event.holderKey === holder || holderQueryMatches(holder, event.holder)) return true;
  return event.aggregate === void 0 && holders.keyOf(event) === holders.resolve(holder);
}
async function loadTimeline(app, filter) {
  const limit = app.settings.config.poll.eventsKept * GLOBAL_EVENTS_FACTOR;
  const logged = filter.issuer ? await app.ctx.eventLog.recentLogged({ issuerId: filter.issuer, limit }) : await app.ctx.eventLog.recentLogged({ limit });
  const holders = new HolderIdentities(app.settings.config.holders.aliases);
  const shown = logged.filter((l) => matches(l, filter, holders)).slice(0, SHOWN);
  const oldest = shown.at(-1);
  if (!oldest) return [];
  const since = Date.parse(oldest.event.detectedAt) - CLOCK_SLACK_MS;
  const record = new DeliveryRecord(app.redis, app.ctx.prefix);
  const [rows, state] = await Promise.all([
    record.newest(since, Number.MAX_SAFE_INTEGER, RECORD_ROWS_READ),
    outboxState(app)
  ]);
  const index = indexOutcomes({ recorded: recordedMessages(rows), ...state });
  return shown.map((l) => ({ logged: l, lines: eventLines(l, index) }));
}
function outcomeText(line) {
  const o = line.outcome;
  if (o === null) return html`<span class="muted">not sent: ${line.reason}</span>`;
  switch (o.state) {
    case "sent":
      return html`<span class="ok">delivered</span> ${formatTime(o.at)} after ${o.attempts} ${o.attempts === 1 ? "attempt" : "attempts"} <span class="muted">(${o.deliveryId})</span>`;
    case "parked":
      return html`<span class="bad">parked</span> ${formatTime(o.at)} after ${o.attempts} attempts: ${o.error ?? "no error recorded"} <a href="/deliveries">retry</a>`;
    case "sending":
      return html`<span class="warn">sending</span>, ${o.attempts} attempts so far${o.error ? html`: ${o.error}` : ""}`;
    case "queued":
      return html`<span class="warn">queued</span> <span class="muted">${line.reason}</span>`;
  }
}
function changeText(e) {
  if (e.aggregate) return html`${fromText(e)} → ${toText(e)} <span class="muted">${deltaText(e)}</span>`;
  if (e.kind === "closed")
    return html`fell below 0.5% (last ${formatPercent(e.final?.value ?? e.previous?.value ?? 0)})`;
  return html`${e.previous ? html`${formatPercent(e.previous.value)} → ` : ""}${formatPercent(e.current?.value ?? 0)} <span class="muted">${formatDelta(e.delta)}</span>`;
}
function entryRow(entry) {
  const e = entry.logged.event;
  const lines = entry.lines.map(
    (l) => html`<li><strong>${l.channel}</strong> <span class="pill">${l.verdict}</span> ${outcomeText(l)}</li>`
  );
  return html`<tr><td>${formatTime(e.detectedAt)}</td><td>${issuerLink(e)}</td>
<td>${holderCell(e)}</td><td>${kindText(e)}${originTags(e)}</td><td>${changeText(e)}</td>
<td>${lines.length > 0 ? html`<ul class="lines">${lines}</ul>` : html`<span class="muted">no channel</span>`}</td></tr>`;
}
function filterForm(f, channels, sources) {
  const option = (value, label, current) => html`<option value="${value}"${value === current ? html` selected` : ""}>${label}</option>`;
  return html`<form method="get" action="/events"><fieldset><legend>Filter</legend>
<label>Issuer id<input name="issuer" value="${f.issuer}"></label>
<label>Holder<input name="holder" value="${f.holder}"></label>
<label>Kind<select name="kind">${option("", "any", f.kind)}${EVENT_KINDS.map((k) => option(k, k, f.kind))}</select></label>
<label>Channel<select name="channel">${option("", "any", f.channel)}${channels.map((c) => option(c, c, f.channel))}</select></label>
${sources.length > 0 ? html`<label>Source<select name="source">${option("", "any", f.source)}${option(API_SOURCE, "upstream API", f.source)}${sources.map((s) => option(s, `register ${s}`, f.source))}</select></label>` : ""}
<label>As of<input name="asOf" value="${f.asOf ?? ""}" placeholder="2026-11-01T09:00Z, 2026-11-01, 2d"></label>
<button>Show</button> <a href="/events">clear</a></fieldset></form>`;
}
function renderTimeline(entries, f, options) {
  const asOf = f.asOf === void 0 ? "" : f.asOfMs === void 0 ? html`<p class="bad">"${f.asOf}" is not a date, a date-time or a duration: every event shown.</p>` : html`<p>As of ${new Date(f.asOfMs).toISOString()}: only what shortwatch had seen by then (detected at or before it), whatever date the register gives.</p>`;
  return html`${filterForm(f, options.channels, options.sources)}${asOf}
<p class="muted">${entries.length} events${entries.length === SHOWN ? ` (the newest ${SHOWN})` : ""}, newest first. Each channel line says where the event went, or why not (the routing verdict kept with the event).</p>
${entries.length > 0 ? html`<table><thead><tr><th>Detected</th><th>Issuer</th><th>Holder</th><th>Kind</th><th>Change</th><th>Channels</th></tr></thead><tbody>${entries.map(entryRow)}</tbody></table>` : html`<p class="muted">no event matches</p>`}`;
}
async function eventsPage(ctx) {
  const filter = filterOf(ctx.query, ctx.app.ctx.now().getTime());
  const entries = await loadTimeline(ctx.app, filter);
  const { config } = ctx.app.settings;
  const channels = config.channels.map((c) => c.name);
  const sources = config.sources.map((s) => s.name);
  return page(
    { title: "Events", section: "/events", refreshSeconds: 30 },
    renderTimeline(entries, filter, { channels, sources })
  );
}
export {
  eventsPage,
  filterOf,
  loadTimeline,
  matches,
  renderTimeline
};
