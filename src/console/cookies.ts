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

/**
 * A `Set-Cookie` value for the console: HttpOnly (no script reads it), SameSite=Strict (no other site's
 * form or link carries it), the whole console's path. No `Secure`: the console is plain HTTP on loopback;
 * behind a TLS proxy the browser still sends it.
 */
export function consoleCookie(name: string, value: string, maxAgeSeconds?: number): string {
  const age = maxAgeSeconds === undefined ? '' : `; Max-Age=${maxAgeSeconds}`;
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Strict${age}`;
}
