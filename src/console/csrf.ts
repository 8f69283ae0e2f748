import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The cookie naming a browser's console session (random; it grants nothing by itself). */
export const SESSION_COOKIE = 'sw_session';

/** The form field carrying the CSRF token. */
export const CSRF_FIELD = 'csrf';

const SESSION_PATTERN = /^[0-9a-f]{32}$/;

/**
 * Synchroniser tokens bound to a session cookie: every form carries HMAC(key, session), and a POST
 * whose token does not match its cookie's is refused. Another site can make a browser send the cookie
 * (not with SameSite=Strict, but defence in depth) yet cannot read the page to learn the token.
 * The key is per process: a restart invalidates open forms, which then ask to reload.
 */
export class CsrfTokens {
  readonly #key: Buffer;

  constructor(key: Buffer = randomBytes(32)) {
    this.#key = key;
  }

  /** A new session id for a browser that has none. */
  newSession(): string {
    return randomBytes(16).toString('hex');
  }

  /** Whether a cookie value is a session id this console could have issued (its shape). */
  isSession(value: string | undefined): value is string {
    return value !== undefined && SESSION_PATTERN.test(value);
  }

  /** The token forms of this session carry. */
  tokenFor(session: string): string {
    return createHmac('sha256', this.#key).update(session).digest('base64url');
  }

  /** True when `token` is this session's token (compared in constant time). */
  verify(session: string | undefined, token: string | undefined): boolean {
    if (!this.isSession(session) || token === undefined) return false;
    const expected = Buffer.from(this.tokenFor(session));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
