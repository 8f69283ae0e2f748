import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
const SESSION_COOKIE = "sw_session";
const CSRF_FIELD = "csrf";
const SESSION_PATTERN = /^[0-9a-f]{32}$/;
class CsrfTokens {
  #key;
  constructor(key = randomBytes(32)) {
    this.#key = key;
  }
  /** A new session id for a browser that has none. */
  newSession() {
    return randomBytes(16).toString("hex");
  }
  /** Whether a cookie value is a session id this console could have issued (its shape). */
  isSession(value) {
    return value !== void 0 && SESSION_PATTERN.test(value);
  }
  /** The token forms of this session carry. */
  tokenFor(session) {
    return createHmac("sha256", this.#key).update(session).digest("base64url");
  }
  /** True when `token` is this session's token (compared in constant time). */
  verify(session, token) {
    if (!this.isSession(session) || token === void 0) return false;
    const expected = Buffer.from(this.tokenFor(session));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
export {
  CSRF_FIELD,
  CsrfTokens,
  SESSION_COOKIE
};
