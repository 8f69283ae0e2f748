import { collectSecrets } from "../config/secret.js";
import { CONSOLE_CSS, CONSOLE_JS } from "./assets.js";
import { AUTH_COOKIE, ConsoleAuth } from "./auth.js";
import { clientAddress } from "./client-address.js";
import { consoleCookie, parseCookies } from "./cookies.js";
import { CSRF_FIELD, CsrfTokens, SESSION_COOKIE } from "./csrf.js";
import { hostRules, postSourceAllowed } from "./host-rules.js";
import { html } from "./html.js";
import { layout } from "./layout.js";
import { page } from "./page.js";
import { pageSecrets, send, sendChunks } from "./respond.js";
import { findRoute, notFoundPage, ownsPath } from "./routes.js";
import { ConsoleSessions } from "./sessions.js";
import { secureCookies, signInRoute } from "./sign-in.js";
import { answerSubscriberPage } from "./subscriber-pages.js";
const MAX_FORM_BYTES = 16 * 1024;
class Refusal extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
  status;
}
async function readForm(request) {
  const type = (request.headers["content-type"] ?? "").split(";")[0]?.trim();
  if (type !== "application/x-www-form-urlencoded") throw new Refusal(415, "forms only");
  let size = 0;
  const chunks = [];
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_FORM_BYTES) throw new Refusal(413, "form too large");
    chunks.push(buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}
function checkPost(request, form, at) {
  if (!postSourceAllowed(hostRules(at.http), request.headers))
    throw new Refusal(403, "This form came from another site, or did not say where it came from.");
  if (!at.csrf.verify(at.session, form.get(CSRF_FIELD) ?? void 0))
    throw new Refusal(
      403,
      "The form had no valid CSRF token (a stale page, or a restarted console): reload and try again."
    );
}
function createConsole(app, csrf = new CsrfTokens()) {
  return {
    async handle(request, response) {
      const url = new URL(request.url ?? "/", "http://console.invalid");
      if (await answerSubscriberPage(app, request, response, url.pathname)) return true;
      if (!app.settings.config.http.console || !ownsPath(url.pathname)) return false;
      if (servedAsset(request, response, url.pathname)) return true;
      const visit = await openVisit(app, csrf, request, response);
      try {
        await answer(app, visit, request, response, url);
      } catch (error) {
        answerFailure(app, visit, error, url.pathname);
      }
      return true;
    }
  };
}
function servedAsset(request, response, path) {
  if (request.method !== "GET") return false;
  if (path === "/assets/console.css") send(response, 200, "text/css; charset=utf-8", CONSOLE_CSS);
  else if (path === "/assets/console.js") send(response, 200, "text/javascript; charset=utf-8", CONSOLE_JS);
  else return false;
  return true;
}
async function openVisit(app, csrf, request, response) {
  const { http } = app.settings.config;
  const secrets = pageSecrets(collectSecrets(app.settings.config));
  const cookies = parseCookies(request.headers.cookie);
  const given = cookies.get(SESSION_COOKIE);
  const session = csrf.isSession(given) ? given : csrf.newSession();
  const cookie = { secure: secureCookies(request, http) };
  const setCookies = session === given ? [] : [consoleCookie(SESSION_COOKIE, session, cookie)];
  const sessions = new ConsoleSessions(app.ctx.redis, app.ctx.prefix);
  const auth = new ConsoleAuth(http.auth.token, sessions);
  const address = clientAddress(request, http.trustedProxies);
  const verdict = await auth.allows(cookies.get(AUTH_COOKIE), request.headers.authorization, {
    address,
    attempts: http.auth.signInAttempts,
    windowMs: http.auth.signInWindow
  });
  const allowed = verdict === "allowed";
  const throttled = verdict === "throttled";
  const token = csrf.tokenFor(session);
  const reply = (result, extraCookies = []) => {
    const cookie2 = [...setCookies, ...extraCookies];
    const headers = cookie2.length > 0 ? { "set-cookie": cookie2 } : {};
    if (result.kind === "redirect") {
      send(response, 303, "text/plain; charset=utf-8", "", { ...headers, location: result.location });
      return;
    }
    const frame = auth.required && allowed ? { ...result.frame, signOut: token } : result.frame;
    const body = layout(frame, result.body).value;
    send(response, result.status ?? 200, "text/html; charset=utf-8", body, headers, secrets);
  };
  return {
    csrf,
    http,
    cookies,
    given,
    token,
    auth,
    sessions,
    allowed,
    throttled,
    address,
    cookie,
    secrets,
    reply
  };
}
async function answer(app, visit, request, response, url) {
  const path = url.pathname;
  if (visit.throttled)
    throw new Refusal(429, "Too many sign-in attempts from this address: try again later.");
  const form = request.method === "POST" ? await readForm(request) : new URLSearchParams();
  if (request.method === "POST")
    checkPost(request, form, { http: visit.http, csrf: visit.csrf, session: visit.given });
  if (path === "/login" || path === "/logout" && request.method === "POST") {
    const signIn = await signInRoute(
      {
        method: request.method,
        url,
        form,
        session: visit.cookies.get(AUTH_COOKIE),
        address: visit.address,
        csrf: visit.token,
        nowMs: app.ctx.now().getTime()
      },
      visit.auth,
      visit.sessions,
      { http: visit.http, cookie: visit.cookie }
    );
    return visit.reply(signIn.result, signIn.cookies);
  }
  if (!visit.allowed) {
    if (request.method !== "GET") throw new Refusal(401, "Sign in first.");
    return visit.reply({
      kind: "redirect",
      location: `/login?next=${encodeURIComponent(path + url.search)}`
    });
  }
  const route = findRoute(request.method ?? "GET", path);
  if (route === "method-not-allowed") throw new Refusal(405, "method not allowed");
  const ctx = { app, csrf: visit.token, query: url.searchParams, form };
  const result = route ? await route.run(ctx) : notFoundPage();
  if (result.kind !== "download") return visit.reply(result);
  const failed = await sendChunks(response, result, visit.secrets);
  if (failed) app.ctx.logger.warn({ err: failed, path }, "console download cut short");
}
function answerFailure(app, visit, error, path) {
  if (error instanceof Refusal) {
    visit.reply(
      page(
        { title: "Refused", section: null },
        html`<p class="notice bad">${error.message}</p>`,
        error.status
      )
    );
    return;
  }
  app.ctx.logger.warn({ err: error, path }, "console page failed");
  visit.reply(
    page(
      { title: "Something went wrong", section: null },
      html`<p class="notice bad">This page could not be built; the daemon's log says why.</p>`,
      500
    )
  );
}
export {
  createConsole
};
