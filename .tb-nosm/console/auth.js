import { createHash, createHmac, timingSafeEqual } from "node:crypto";
const AUTH_COOKIE = "sw_auth";
function sameBytes(a, b) {
  const da = createHash("sha256").update(a).digest();
  const db = createHash("sha256").update(b).digest();
  return timingSafeEqual(da, db);
}
class ConsoleAuth {
  #token;
  #sessions;
  constructor(token, sessions) {
    this.#token = token;
    this.#sessions = sessions;
  }
  /** False when the console is open (loopback without a token). */
  get required() {
    return this.#token !== void 0;
  }
  /** Whether the token typed into the sign-in form is the configured one. */
  checkToken(given) {
    return this.#token !== void 0 && sameBytes(given, this.#token.reveal());
  }
  /** A new session for a browser that gave the right token: the auth cookie's value. */
  signIn(ttlMs) {
    return this.#sessions.create(this.#fingerprint(), ttlMs);
  }
  /** Ends the session a browser's cookie names. */
  signOut(session) {
    return this.#sessions.revoke(session);
  }
  /**
   * Whether a request may see the console. An `Authorization: Bearer` header is a sign-in attempt of
   * the client's address: a wrong token is counted against `throttle`'s attempts, as a wrong sign-in
   * is, and an address that has none left is refused (`throttled`) whatever token it sends.
   */
  async allows(session, authorization, throttle) {
    if (this.#token === void 0) return "allowed";
    const bearer = /^Bearer (.+)$/i.exec(authorization ?? "")?.[1];
    if (bearer !== void 0) {
      const left = await this.#sessions.signInsLeft(throttle.address, throttle.attempts);
      if (!left.allowed) return "throttled";
      if (this.checkToken(bearer)) return "allowed";
      await this.#sessions.countSignIn(throttle.address, throttle.attempts, throttle.windowMs);
      return "refused";
    }
    return await this.#sessions.valid(session, this.#fingerprint()) ? "allowed" : "refused";
  }
  /** What a session is bound to: a keyed digest of the token (Redis never holds the token). */
  #fingerprint() {
    if (this.#token === void 0) throw new Error("no console token configured");
    return createHmac("sha256", this.#token.reveal()).update("shortwatch-console-session").digest("base64url");
  }
}
export {
  AUTH_COOKIE,
  ConsoleAuth
};
