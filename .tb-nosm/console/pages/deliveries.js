import { summarise } from "../../channels/message-summary.js";
import { retryParked } from "../actions/retry-parked.js";
import { outboxState } from "../data/deliveries.js";
import { formatAge, formatTime } from "../format.js";
import { html } from "../html.js";
import { page, redirect } from "../page.js";
import { loadRecord, recordSearchOf, renderRecord } from "./record-section.js";
async function loadDeliveries(app, query) {
  const nowMs = app.ctx.now().getTime();
  const [state, record] = await Promise.all([
    outboxState(app),
    loadRecord(app, recordSearchOf(query, nowMs))
  ]);
  const configured = new Set(app.settings.config.channels.map((c) => c.name));
  return { ...state, record, configured, nowMs };
}
function retryForm(csrf, fields, label) {
  const hidden = Object.entries(fields).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`);
  return html`<form method="post" action="/deliveries/retry" class="inline"><input type="hidden" name="csrf" value="${csrf}">${hidden}<button>${label}</button></form>`;
}
function renderDeliveries(data, csrf) {
  const parked = data.parked.map(
    (p) => html`<tr data-delivery="${p.deliveryId}"><td>${p.channel}</td><td><code>${p.deliveryId}</code></td><td>${summarise(p.message)}</td><td class="num">${p.attempts}</td>
<td>${formatTime(p.parkedAt)}<br><span class="muted">${formatAge(p.parkedAt, data.nowMs)}</span></td><td class="bad">${p.lastError ?? ""}</td>
<td>${data.configured.has(p.channel) ? retryForm(csrf, { channel: p.channel, delivery: p.deliveryId }, "Retry") : html`<span class="muted">channel removed from the config</span>`}</td></tr>`
  );
  const inflight = data.inflight.map(
    ({
      channel,
      inflight: f
    }) => html`<tr><td>${channel}</td><td><code>${f.deliveryId}</code></td><td>${summarise(f.message)}</td><td class="num">${f.attempts}</td>
<td>${f.nextAttemptAt > data.nowMs ? html`next try ${formatTime(f.nextAttemptAt)}` : "now"}</td><td>${f.lastError ?? ""}</td></tr>`
  );
  return html`<h2>Parked (failed for good)</h2>
${parked.length > 0 ? html`<p>${retryForm(csrf, { all: "1" }, `Retry all ${parked.length}`)} <span class="muted">puts them back at the front of their outboxes under the same delivery ids</span></p>
<table id="parked"><thead><tr><th>Channel</th><th>Delivery</th><th>Message</th><th class="num">Attempts</th><th>Parked</th><th>Last error</th><th></th></tr></thead><tbody>${parked}</tbody></table>` : html`<p class="muted" id="parked-none">nothing is parked</p>`}
<h2>Being sent</h2>
${inflight.length > 0 ? html`<table><thead><tr><th>Channel</th><th>Delivery</th><th>Message</th><th class="num">Attempts</th><th>Next attempt</th><th>Last error</th></tr></thead><tbody>${inflight}</tbody></table>` : html`<p class="muted">nothing in flight</p>`}
${renderRecord(data.record)}`;
}
async function deliveriesPage(ctx) {
  const data = await loadDeliveries(ctx.app, ctx.query);
  const retried = ctx.query.get("retried");
  const notice = retried === null ? void 0 : `${Number(retried) || 0} deliveries queued again; the daemon sends them under the same delivery ids.`;
  return page(
    { title: "Deliveries", section: "/deliveries", refreshSeconds: 10, notice },
    renderDeliveries(data, ctx.csrf)
  );
}
async function retryAction(ctx) {
  const all = ctx.form.get("all") === "1";
  const deliveryId = ctx.form.get("delivery") ?? void 0;
  const channel = ctx.form.get("channel") ?? void 0;
  const retried = all || deliveryId ? await retryParked(ctx.app, all ? {} : { channel, deliveryId }) : 0;
  return redirect(`/deliveries?retried=${retried}`);
}
export {
  deliveriesPage,
  renderDeliveries,
  retryAction
};
