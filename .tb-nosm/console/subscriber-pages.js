import { EVENT_KINDS } from "../positions/types.js";
import { isSilenced } from "../routing/subscriber.js";
import { readLink } from "../routing/subscriber-links.js";
import { isSubscriberChangeError } from "../state/subscriber-store.js";
import { hostRules, postSourceAllowed } from "./host-rules.js";
import { html } from "./html.js";
import { send } from "./respond.js";
const SUBSCRIBER_PATH = /^\/(me|unsubscribe)\/([A-Za-z0-9._-]{10,400})$/u;
const MAX_FORM_BYTES = 16 * 1024;
const REFUSALS = {
  malformed: "This link is not one shortwatch made.",
  forged: "This link is not one shortwatch made.",
  "wrong-purpose": "This link is for another page.",
  expired: "This link has expired.",
  revoked: "This link was revoked.",
  unknown: "This link belongs to no subscriber any more."
};
function subscriberPage(title, body) {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex">
<title>${title} · shortwatch</title>
<link rel="stylesheet" href="/assets/console.css">
</head>
<body>
<header><span class="brand">shortwatch</span></header>
<main id="main">
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`.value;
}
async function subscriberOf(app, token, purpose) {
  const settings = app.settings.config.subscribers;
  if (!settings) return { ok: false, reason: REFUSALS.unknown };
  const read = readLink(settings.linkSecret.reveal(), token, purpose, app.ctx.now().getTime());
  if (!read.ok) return { ok: false, reason: REFUSALS[read.refusal] };
  const subscriber = await app.ctx.subscribers.get(read.claim.subscriberId);
  if (!subscriber) return { ok: false, reason: REFUSALS.unknown };
  if (subscriber.linkGeneration !== read.claim.generation) return { ok: false, reason: REFUSALS.revoked };
  return { ok: true, subscriber };
}
async function readForm(request) {
  let size = 0;
  const chunks = [];
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_FORM_BYTES) break;
    chunks.push(buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}
async function answerSubscriberPage(app, request, response, path) {
  const match = SUBSCRIBER_PATH.exec(path);
  if (!match) return false;
  const [, kind = "", token = ""] = match;
  const method = request.method ?? "GET";
  if (method !== "GET" && method !== "POST") {
    send(response, 405, "text/plain; charset=utf-8", "method not allowed");
    return true;
  }
  const found = await subscriberOf(app, token, kind === "me" ? "manage" : "unsubscribe");
  if (!found.ok) {
    const body = html`<p class="notice bad">${found.reason}</p><p>Every alert e-mail carries a fresh link; or ask the desk that set up your alerts.</p>`;
    send(response, 403, "text/html; charset=utf-8", subscriberPage("Link not valid", body));
    return true;
  }
  const from = { who: found.subscriber.email, from: request.socket.remoteAddress ?? "" };
  const form = method === "POST" ? await readForm(request) : new URLSearchParams();
  const result = kind === "me" ? await managePage(app, found.subscriber, method, form, request, { ...from, via: "link" }) : await unsubscribePage(app, found.subscriber, method, form, { ...from, via: "one-click" });
  send(response, result.status, "text/html; charset=utf-8", subscriberPage(result.title, result.body));
  return true;
}
async function unsubscribePage(app, subscriber, method, form, actor) {
  if (method === "GET") {
    const body2 = html`<p>Stop every alert to <strong>${subscriber.email}</strong>?</p>
<form method="post"><button name="confirm" value="1">Unsubscribe</button></form>`;
    return { status: 200, title: "Unsubscribe", body: body2 };
  }
  const again = form.get("resubscribe") === "1";
  await app.ctx.subscribers.update(
    subscriber.id,
    (s) => {
      const { unsubscribedAt: _, ...rest } = s;
      return again ? rest : { ...s, unsubscribedAt: app.ctx.now().toISOString() };
    },
    actor,
    again ? "resubscribed" : "unsubscribed"
  );
  if (again)
    return {
      status: 200,
      title: "Subscribed again",
      body: html`<p>Alerts to ${subscriber.email} start again with the next change.</p>`
    };
  const body = html`<p>${subscriber.email} will receive no more alerts.</p>
<form method="post"><button name="resubscribe" value="1">Changed my mind: subscribe again</button></form>`;
  return { status: 200, title: "Unsubscribed", body };
}
async function managePage(app, subscriber, method, form, request, actor) {
  if (method === "GET") return { status: 200, title: "My alerts", body: prefsForm(subscriber) };
  if (!postSourceAllowed(hostRules(app.settings.config.http), request.headers)) {
    return {
      status: 403,
      title: "My alerts",
      body: html`<p class="notice bad">This form came from another site.</p>`
    };
  }
  try {
    const saved = await app.ctx.subscribers.update(
      subscriber.id,
      (s) => edited(s, form),
      actor,
      "edited",
      Number(form.get("version"))
    );
    return {
      status: 200,
      title: "My alerts",
      body: html`<p class="notice" role="status">Saved: from the next change on.</p>${prefsForm(saved)}`
    };
  } catch (error) {
    if (!isSubscriberChangeError(error)) throw error;
    return {
      status: 400,
      title: "My alerts",
      body: html`<p class="notice bad">${error.message}</p>${prefsForm(subscriber)}`
    };
  }
}
function lines(value) {
  return [
    ...new Set(
      (value ?? "").split(/\r?\n/u).map((line) => line.trim()).filter((line) => line !== "")
    )
  ];
}
function optionalNumber(value) {
  return value === null || value.trim() === "" ? void 0 : Number(value.replace(",", "."));
}
function edited(s, form) {
  const mode = form.get("mode");
  const { minValue: _v, minDelta: _d, ...prefs } = s.prefs;
  const minValue = optionalNumber(form.get("minValue"));
  const minDelta = optionalNumber(form.get("minDelta"));
  return {
    ...s,
    watch: { issuers: lines(form.get("issuers")), holders: lines(form.get("holders")) },
    prefs: {
      ...prefs,
      kinds: EVENT_KINDS.filter((kind) => form.getAll("kinds").includes(kind)),
      ...minValue === void 0 ? {} : { minValue },
      ...minDelta === void 0 ? {} : { minDelta },
      aggregates: form.get("aggregates") === "1",
      mode: mode === "digest" || mode === "both" ? mode : "immediate",
      paused: form.get("paused") === "1"
    }
  };
}
function prefsForm(s) {
  const kind = (k) => html`<label class="check"><input type="checkbox" name="kinds" value="${k}"${s.prefs.kinds.includes(k) ? html` checked` : ""}> ${k}</label> `;
  const mode = (m, label) => html`<label class="check"><input type="radio" name="mode" value="${m}"${s.prefs.mode === m ? html` checked` : ""}> ${label}</label> `;
  const state = isSilenced(s) ? s.unsubscribedAt ? "unsubscribed" : "paused" : "receiving alerts";
  return html`<p>${s.name} · ${s.email} · <strong>${state}</strong></p>
<form method="post" class="prefs">
<input type="hidden" name="version" value="${s.version}">
<label>Issuers I follow (any holder), one per line: name, ISIN or id<br><textarea name="issuers" rows="6">${s.watch.issuers.join("\n")}</textarea></label>
<label>Holders I follow anywhere, one per line<br><textarea name="holders" rows="3">${s.watch.holders.join("\n")}</textarea></label>
<fieldset><legend>Kinds (none ticked: every kind)</legend>${EVENT_KINDS.map(kind)}</fieldset>
<label>Only positions of at least (%) <input name="minValue" inputmode="decimal" value="${s.prefs.minValue ?? ""}"></label>
<label>Only moves of at least (percentage points) <input name="minDelta" inputmode="decimal" value="${s.prefs.minDelta ?? ""}"></label>
<label class="check"><input type="checkbox" name="aggregates" value="1"${s.prefs.aggregates ? html` checked` : ""}> Register aggregates of my issuers</label>
<fieldset><legend>How</legend>${mode("immediate", "at once")}${mode("digest", "daily digest")}${mode("both", "both")}</fieldset>
<label class="check"><input type="checkbox" name="paused" value="1"${s.prefs.paused ? html` checked` : ""}> Pause all alerts</label>
<p><button>Save</button></p>
</form>`;
}
export {
  SUBSCRIBER_PATH,
  answerSubscriberPage
};
