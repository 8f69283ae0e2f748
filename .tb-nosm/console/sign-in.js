import { TLSSocket } from "node:tls";
import { AUTH_COOKIE } from "./auth.js";
import { consoleCookie } from "./cookies.js";
import { formatTime } from "./format.js";
import { html } from "./html.js";
import { page, redirect } from "./page.js";
import { renderLogin } from "./pages/login.js";
import { safeNext } from "./safe-next.js";
function secureCookies(request, http) {
  return request.socket instanceof TLSSocket || (http.publicUrl?.startsWith("https:") ?? false);
}
function signInPage(csrf, next, wrong) {
  return page({ title: "Sign in", section: null }, renderLogin(csrf, next, wrong), wrong ? 401 : 200);
}
async function signInRoute(req, auth, sessions, settings) {
  const cleared = consoleCookie(AUTH_COOKIE, "", { ...settings.cookie, maxAgeSeconds: 0 });
  if (req.url.pathname === "/logout") {
    await auth.signOut(req.session);
    return { result: redirect("/"), cookies: [cleared] };
  }
  if (!auth.required) return { result: redirect("/"), cookies: [] };
  if (req.method !== "POST")
    return { result: signInPage(req.csrf, safeNext(req.url.searchParams.get("next")), false), cookies: [] };
  const next = safeNext(req.form.get("next"));
  const { signInAttempts, signInWindow, sessionTtl } = settings.http.auth;
  const allowance = await sessions.countSignIn(req.address, signInAttempts, signInWindow);
  if (!allowance.allowed) {
    const body = html`<p class="notice bad">Too many sign-in attempts from this address: try again after ${formatTime(req.nowMs + allowance.retryInMs)}.</p>`;
    return { result: page({ title: "Sign in", section: null }, body, 429), cookies: [] };
  }
  if (!auth.checkToken(req.form.get("token") ?? ""))
    return { result: signInPage(req.csrf, next, true), cookies: [] };
  await auth.signOut(req.session);
  const id = await auth.signIn(sessionTtl);
  const cookie = consoleCookie(AUTH_COOKIE, id, {
    ...settings.cookie,
    maxAgeSeconds: Math.floor(sessionTtl / 1e3)
  });
  return { result: redirect(next), cookies: [cookie] };
}
export {
  secureCookies,
  signInRoute
};
