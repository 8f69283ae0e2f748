import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Secret } from '../config/secret.js';

/** The cookie a signed-in browser carries: derived from the token, never the token itself. */
export const AUTH_COOKIE = 'sw_auth';

/** How long a sign-in lasts in the browser. */
export const AUTH_COOKIE_SECONDS = 12 * 3600;

function sameBytes(a: string, b: string): boolean {
  // Digests first: equal lengths for timingSafeEqual, whatever was sent.
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}

/**
 * Who may see the console: anyone on loopback when no `http.auth.token` is set; otherwise a browser
 * signed in with the token (a cookie holding HMAC(token), so rotating the token signs everyone out) or
 * a client sending `Authorization: Bearer <token>`.
 */
export class ConsoleAuth {
  readonly #token: Secret | undefined;

  constructor(token: Secret | undefined) {
    this.#token = token;
  }

  /** False when the console is open (loopback without a token). */
  get required(): boolean {
    return this.#token !== undefined;
  }

  /** The auth cookie's value for a browser that gave the right token. */
  cookieValue(): string {
    return createHmac('sha256', this.#reveal()).update('shortwatch-console-session').digest('base64url');
  }

  /** Whether the token typed into the sign-in form is the configured one. */
  checkToken(given: string): boolean {
    return this.#token !== undefined && sameBytes(given, this.#reveal());
  }

  /** Whether a request may see the console. */
  allows(cookie: string | undefined, authorization: string | undefined): boolean {
    if (this.#token === undefined) return true;
    if (cookie !== undefined && sameBytes(cookie, this.cookieValue())) return true;
    const bearer = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1];
    return bearer !== undefined && this.checkToken(bearer);
  }

  #reveal(): string {
    if (this.#token === undefined) throw new Error('no console token configured');
    return this.#token.reveal();
  }
}
