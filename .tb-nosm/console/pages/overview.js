import {
  collectStatus
} from "../../ops/status.js";
import { REQUEST_PURPOSES } from "../../state/request-tally.js";
import { barChart } from "../chart/bar-chart.js";
import { formatAge, formatCount, formatTime } from "../format.js";
import { html } from "../html.js";
import { page } from "../page.js";
const PURPOSE_LABEL = {
  "issuer-list": "issuer list (gate, sweeps)",
  poll: "positions polls",
  history: "status=all (closes, history)",
  probe: "access and 429 probes",
  interactive: "CLI commands"
};
async function loadOverview(app) {
  const status = await collectStatus(app);
  const nowMs = app.ctx.now().getTime();
  if (app.settings.config.upstream === void 0) return { status, requests: null, nowMs };
  const usage = await app.ctx.budget.usage();
  const windowStart = usage.day.resetAt - app.settings.config.budget.dayWindow;
  const requests = await app.ctx.budget.calls(windowStart);
  return { status, requests, nowMs };
}
function accessCard(upstream, budget) {
  if (upstream.access !== "ok") {
    const what = upstream.access === "unauthorized" ? "Unauthorized (401)" : "No API access (403)";
    return html`<p class="big bad">${what}</p><p>since ${formatTime(upstream.since)}; polling stopped until the key is fixed or <code>shortwatch resume</code>.</p>`;
  }
  if (budget.probing)
    return html`<p class="big warn">Rate-limited</p><p>one probe every ${budget.probing.every}; next ${formatTime(upstream.blockedUntil)}</p>`;
  if (upstream.blockedUntil)
    return html`<p class="big warn">Held after a 429</p><p>until ${formatTime(upstream.blockedUntil)}</p>`;
  return html`<p class="big ok">OK</p><p class="muted">the upstream answers with this key</p>`;
}
function windowCard(name, w, extra) {
  return html`<div class="card"><h2>Budget this ${name}</h2><p class="big">${formatCount(w.left)} left</p>
<p>${formatCount(w.used)} of ${formatCount(w.cap)} used; resets ${formatTime(w.resetsAt)}</p>${extra}</div>`;
}
function requestBars(requests, budget) {
  const bars = REQUEST_PURPOSES.map((p) => ({ label: PURPOSE_LABEL[p], value: requests[p] }));
  const counted = bars.reduce((sum, b) => sum + b.value, 0);
  const retries = budget.day.used - counted;
  if (retries > 0) bars.push({ label: "retries of those calls", value: retries });
  return barChart(bars, "Today's upstream requests by purpose");
}
function channelRows(s) {
  return s.channels.map(
    (c) => html`<tr><td>${c.name}</td><td>${c.kind}</td><td>${c.mode}</td><td class="num">${c.waiting}</td><td class="num">${c.delayed}</td><td class="num">${c.active}</td>
<td class="num">${c.failed > 0 ? html`<a class="bad" href="/deliveries">${c.failed}</a>` : "0"}</td><td class="num">${c.staged}</td></tr>`
  );
}
function apiPart(data) {
  const s = data.status;
  if (s.upstream === null || s.budget === null || data.requests === null) {
    return html`<div class="cards"><div class="card"><h2>Upstream API</h2><p class="big">not configured</p>
<p class="muted">registers only: no API sweep, no budget spent</p></div></div>`;
  }
  return html`<div class="cards">
<div class="card"><h2>Upstream access</h2>${accessCard(s.upstream, s.budget)}</div>
${windowCard("minute", s.budget.minute, "")}
${windowCard("day", s.budget.day, html`<p class="muted">${formatCount(s.budget.reserve)} kept for CLI commands (the console's history uses the polling budget)</p>`)}
<div class="card"><h2>Last sweep</h2><p class="big">${formatAge(s.sweep.lastSweepAt, data.nowMs) || "never"}</p>
<p>${formatTime(s.sweep.lastSweepAt)}<br>dataset version ${formatTime(s.sweep.datasetLastUpdated)}</p></div>
</div>
<h2>Today's requests by purpose</h2>
${requestBars(data.requests, s.budget)}
<h2>Plan</h2>
<ul class="lines">${s.plan.summary.map((line) => html`<li>${line}</li>`)}</ul>`;
}
function registerPart(s) {
  if (s.sources.length === 0) return "";
  const rows = s.sources.map(
    (r) => html`<tr><td>${r.name}</td><td>${r.kind}</td><td${r.state === "read" ? "" : html` class="warn"`}>${r.reason ? `${r.state}: ${r.reason}` : r.state}</td><td>${formatTime(r.lastGoodAt)}</td></tr>`
  );
  return html`<h2>Registers</h2>
<table><thead><tr><th>Register</th><th>Kind</th><th>State</th><th>Last good read</th></tr></thead><tbody>${rows}</tbody></table>`;
}
function renderOverview(data) {
  const s = data.status;
  const notices = s.notices.map(
    (n) => html`<li><span class="pill ${n.severity === "critical" ? "bad" : "warn"}">${n.severity}</span> <strong>${n.title}</strong> <span class="muted">since ${formatTime(n.since)}</span><br>${n.text}</li>`
  );
  const processes = s.processes.map(
    (p) => html`<tr><td>${p.id}</td><td>${p.role}</td><td>${formatAge(p.seenAt, data.nowMs)}</td></tr>`
  );
  const schedulers = s.schedulers.map(
    (x) => html`<tr><td>${x.id}</td><td>${x.registered ? formatTime(x.next) : "not registered"}</td><td>${x.late ? html`<span class="bad">late</span>` : "on time"}</td></tr>`
  );
  return html`${apiPart(data)}
${registerPart(s)}
<h2>Open notices</h2>
${notices.length > 0 ? html`<ul class="lines">${notices}</ul>` : html`<p class="muted">none</p>`}
${s.overdue.length > 0 ? html`<h2>Overdue issuers</h2><ul class="lines">${s.overdue.map((line) => html`<li>${line}</li>`)}</ul>` : ""}
<h2>Queues</h2>
<table><thead><tr><th>Channel</th><th>Kind</th><th>Mode</th><th class="num">Ready</th><th class="num">Held</th><th class="num">Sending</th><th class="num">Parked</th><th class="num">Staged</th></tr></thead>
<tbody>${channelRows(s)}</tbody></table>
<h2>Schedulers</h2>
<table><thead><tr><th>Scheduler</th><th>Next run</th><th>State</th></tr></thead><tbody>${schedulers}</tbody></table>
<h2>Processes</h2>
${processes.length > 0 ? html`<table><thead><tr><th>Process</th><th>Role</th><th>Last seen</th></tr></thead><tbody>${processes}</tbody></table>` : html`<p class="muted">no daemon process is alive</p>`}`;
}
async function overviewPage(ctx) {
  const data = await loadOverview(ctx.app);
  return page({ title: "Overview", section: "/", refreshSeconds: 15 }, renderOverview(data));
}
export {
  loadOverview,
  overviewPage,
  renderOverview
};
