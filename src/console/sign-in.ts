import type { IncomingMessage } from 'node:http';
import { TLSSocket } from 'node:tls';
import type { Config } from '../config/schema.js';
import { AUTH_COOKIE, type ConsoleAuth } from './auth.js';
import { type CookieOptions, consoleCookie } from './cookies.js';
import { formatTime } from './format.js';
import { html } from './html.js';
import { type PageResult, page, redirect } from './page.js';
import { renderLogin } from './pages/login.js';
import { safeNext } from './safe-next.js';
import type { ConsoleSessions } from './sessions.js';

/** What the sign-in routes need of one request. */
export interface SignInRequest {
  method: string | undefined;
  url: URL;
  form: URLSearchParams;
  /** The auth cookie the browser sent. */
  session: string | undefined;
  /** The client's address, which sign-in attempts are counted by. */
  address: string;
  /** The CSRF token the sign-in form posts. */
  csrf: string;
  /** Redis' clock, for the time a throttled address may try again. */
  nowMs: number;
}

/** A page and the cookies it sets. */
export interface SignInResult {
  result: PageResult;
  cookies: string[];
}

/** Whether the console's cookies get `Secure`: the request came over TLS, or the console's public URL is https. */
export function secureCookies(request: IncomingMessage, http: Config['http']): boolean {
  return request.socket instanceof TLSSocket || (http.publicUrl?.startsWith('https:') ?? false);
}

function signInPage(csrf: string, next: string, wrong: boolean): PageResult {
  return page({ title: 'Sign in', section: null }, renderLogin(csrf, next, wrong), wrong ? 401 : 200);
}

/**
 * GET /login shows the form; POST /login counts the attempt against the address (throttled), checks the
 * token and starts a session; POST /logout ends it in Redis, so the cookie is refused even if replayed.
 */
export async function signInRoute(
  req: SignInRequest,
  auth: ConsoleAuth,
  sessions: ConsoleSessions,
  settings: { http: Config['http']; cookie: Pick<CookieOptions, 'secure'> },
): Promise<SignInResult> {
  const cleared = consoleCookie(AUTH_COOKIE, '', { ...settings.cookie, maxAgeSeconds: 0 });
  if (req.url.pathname === '/logout') {
    await auth.signOut(req.session);
    return { result: redirect('/'), cookies: [cleared] };
  }
  if (!auth.required) return { result: redirect('/'), cookies: [] };
  if (req.method !== 'POST')
    return { result: signInPage(req.csrf, safeNext(req.url.searchParams.get('next')), false), cookies: [] };
  const next = safeNext(req.form.get('next'));
  const { signInAttempts, signInWindow, sessionTtl } = settings.http.auth;
  const allowance = await sessions.countSignIn(req.address, signInAttempts, signInWindow);
  if (!allowance.allowed) {
    const body = html`<p class="notice bad">Too many sign-in attempts from this address: try again after ${formatTime(req.nowMs + allowance.retryInMs)}.</p>`;
    return { result: page({ title: 'Sign in', section: null }, body, 429), cookies: [] };
  }
  if (!auth.checkToken(req.form.get('token') ?? ''))
    return { result: signInPage(req.csrf, next, true), cookies: [] };
  // A sign-in ends the session the browser had (if any) and starts a new one: ids are never reused.
  await auth.signOut(req.session);
  const id = await auth.signIn(sessionTtl);
  const cookie = consoleCookie(AUTH_COOKIE, id, {
    ...settings.cookie,
    maxAgeSeconds: Math.floor(sessionTtl / 1000),
  });
  return { result: redirect(next), cookies: [cookie] };
}
