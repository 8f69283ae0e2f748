import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Secret } from '../config/secret.js';
import type { ConsoleSessions } from './sessions.js';

/** The cookie a signed-in browser carries: a random session id, never the token or anything derived from it. */
export const AUTH_COOKIE = 'sw_auth';

function sameBytes(a: string, b: string): boolean {
  // Digests first: equal lengths for timingSafeEqual, whatever was sent.
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}

/** The sign-in throttle a Bearer request is counted by: the client's address and its attempts. */
export interface BearerThrottle {
  address: string;
  attempts: number;
  windowMs: number;
}

/**
 * Who may see the console: anyone whose `Host` passed the gate when no `http.auth.token` is set (loopback
 * only, the schema sees to it); otherwise a browser signed in with the token (a session in Redis, bound to
 * the token's fingerprint, so a new token signs everyone out) or a client sending `Authorization: Bearer`.
 */
export class ConsoleAuth {
  readonly #token: Secret | undefined;
  readonly #sessions: ConsoleSessions;

  constructor(token: Secret | undefined, sessions: ConsoleSessions) {
    this.#token = token;
    this.#sessions = sessions;
  }

  /** False when the console is open (loopback without a token). */
  get required(): boolean {
    return this.#token !== undefined;
  }

  /** Whether the token typed into the sign-in form is the configured one. */
  checkToken(given: string): boolean {
    return this.#token !== undefined && sameBytes(given, this.#token.reveal());
  }

  /** A new session for a browser that gave the right token: the auth cookie's value. */
  signIn(ttlMs: number): Promise<string> {
    return this.#sessions.create(this.#fingerprint(), ttlMs);
  }

  /** Ends the session a browser's cookie names. */
  signOut(session: string | undefined): Promise<void> {
    return this.#sessions.revoke(session);
  }

  /**
   * Whether a request may see the console. An `Authorization: Bearer` header is a sign-in attempt of
   * the client's address: a wrong token is counted against `throttle`'s attempts, as a wrong sign-in
   * is, and an address that has none left is refused (`throttled`) whatever token it sends.
   */
  async allows(
    session: string | undefined,
    authorization: string | undefined,
    throttle: BearerThrottle,
  ): Promise<'allowed' | 'refused' | 'throttled'> {
    if (this.#token === undefined) return 'allowed';
    const bearer = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1];
    if (bearer !== undefined) {
      const left = await this.#sessions.signInsLeft(throttle.address, throttle.attempts);
      if (!left.allowed) return 'throttled';
      if (this.checkToken(bearer)) return 'allowed';
      await this.#sessions.countSignIn(throttle.address, throttle.attempts, throttle.windowMs);
      return 'refused';
    }
    return (await this.#sessions.valid(session, this.#fingerprint())) ? 'allowed' : 'refused';
  }

  /** What a session is bound to: a keyed digest of the token (Redis never holds the token). */
  #fingerprint(): string {
    if (this.#token === undefined) throw new Error('no console token configured');
    return createHmac('sha256', this.#token.reveal())
      .update('shortwatch-console-session')
      .digest('base64url');
  }
}
