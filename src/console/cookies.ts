/** Parses a `Cookie` header into name → value (the first of a repeated name wins). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    if (!cookies.has(name)) cookies.set(name, part.slice(at + 1).trim());
  }
  return cookies;
}

/** How a console cookie is set: its lifetime (a browser-session cookie without one), and whether `Secure`. */
export interface CookieOptions {
  maxAgeSeconds?: number;
  secure: boolean;
}

/**
 * A `Set-Cookie` value for the console: HttpOnly (no script reads it), SameSite=Strict (no other site's
 * form or link carries it), the whole console's path, and `Secure` when the console is reached over TLS
 * (the request came over TLS, or `http.publicUrl` is https), so it never travels in clear.
 */
export function consoleCookie(name: string, value: string, options: CookieOptions): string {
  const age = options.maxAgeSeconds === undefined ? '' : `; Max-Age=${options.maxAgeSeconds}`;
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Strict${options.secure ? '; Secure' : ''}${age}`;
}
