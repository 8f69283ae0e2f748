import { addMute, muteFields, muteRequest } from "../actions/mute-form.js";
import { formatAge, formatTime } from "../format.js";
import { html } from "../html.js";
import { page, redirect } from "../page.js";
const EMPTY = { scope: "holder", target: "", channel: "", for: "7d", reason: "", digests: false };
function removeForm(m, csrf) {
  return html`<form method="post" action="/mutes/remove" class="inline"><input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="scope" value="${m.scope}"><input type="hidden" name="target" value="${m.target}"><input type="hidden" name="channel" value="${m.channel ?? ""}">
<button>Remove</button></form>`;
}
function createForm(f, channels, csrf) {
  const option = (value, label, current) => html`<option value="${value}"${value === current ? html` selected` : ""}>${label}</option>`;
  return html`<form method="post" action="/mutes" id="mute-form"><input type="hidden" name="csrf" value="${csrf}"><fieldset><legend>New mute</legend>
<label>What<select name="scope">${option("holder", "holder", f.scope)}${option("issuer", "issuer", f.scope)}</select></label>
<label>Name<input name="target" value="${f.target}" required></label>
<label>Channel<select name="channel">${option("", "every channel", f.channel)}${channels.map((c) => option(c, c, f.channel))}</select></label>
<label>For<input name="for" value="${f.for}" size="6" required></label>
<label>Reason<input name="reason" value="${f.reason}"></label>
<label class="check"><input type="checkbox" name="digests"${f.digests ? html` checked` : ""}> digests too</label>
<button>Mute</button></fieldset></form>`;
}
function renderMutes(data, csrf, fields = EMPTY) {
  const rows = data.mutes.map(
    (m) => html`<tr><td>${m.scope}</td><td>${m.target}</td><td>${m.channel ?? "every channel"}</td><td>${formatTime(m.until)}<br><span class="muted">${formatAge(m.until, data.nowMs)}</span></td>
<td>${m.digests ? "muted too" : "still receive it"}</td><td>${m.reason ?? ""}</td><td>${removeForm(m, csrf)}</td></tr>`
  );
  const counts = Object.entries(data.suppressed).map(([c, n]) => `${c}: ${n}`).join(", ");
  return html`${createForm(fields, data.channels, csrf)}
<h2>In force</h2>
${rows.length > 0 ? html`<table id="mutes"><thead><tr><th>Scope</th><th>Name</th><th>Channel</th><th>Until</th><th>Digests</th><th>Reason</th><th></th></tr></thead><tbody>${rows}</tbody></table>` : html`<p class="muted" id="mutes-none">no mute in force</p>`}
<p class="muted">Events kept from each channel by mutes so far: ${counts || "none"}.</p>`;
}
async function loadMutes(ctx) {
  const { app } = ctx;
  return {
    mutes: await app.ctx.mutes.list(),
    suppressed: await app.ctx.mutes.suppressedCounts(),
    channels: app.settings.config.channels.map((c) => c.name),
    nowMs: app.ctx.now().getTime()
  };
}
const NOTES = {
  added: "Mute added.",
  removed: "Mute removed.",
  gone: "That mute was no longer in force."
};
async function mutesPage(ctx) {
  const notice = NOTES[ctx.query.get("done") ?? ""];
  return page({ title: "Mutes", section: "/mutes", notice }, renderMutes(await loadMutes(ctx), ctx.csrf));
}
async function createMuteAction(ctx) {
  const fields = muteFields(ctx.form);
  const request = await muteRequest(ctx.app, fields);
  const problem = typeof request === "string" ? request : await addMute(ctx.app, request);
  if (problem === null) return redirect("/mutes?done=added");
  const body = renderMutes(await loadMutes(ctx), ctx.csrf, fields);
  return page({ title: "Mutes", section: "/mutes", notice: `Not muted: ${problem}` }, body, 400);
}
async function removeMuteAction(ctx) {
  const scope = ctx.form.get("scope");
  const target = ctx.form.get("target") ?? "";
  const channel = ctx.form.get("channel") || void 0;
  if (scope !== "holder" && scope !== "issuer") return redirect("/mutes");
  const removed = await ctx.app.ctx.mutes.remove(scope, target, channel);
  return redirect(`/mutes?done=${removed ? "removed" : "gone"}`);
}
export {
  createMuteAction,
  mutesPage,
  removeMuteAction,
  renderMutes
};
