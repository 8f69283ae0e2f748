// WHATWG URL parsing canonicalises IPv4 hosts (`0x7f.1` → `127.0.0.1`) and IPv6 ones (`[0:0::1]` →
// `[::1]`), so checking the parsed hostname is enough: no spelling of a remote host passes for loopback.
const LOOPBACK_IPV4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const LOOPBACK_NAMES = new Set(['localhost', 'localhost.', '[::1]']);

/** Whether a URL's hostname (as `new URL(..).hostname` gives it) is this machine: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return LOOPBACK_NAMES.has(host) || LOOPBACK_IPV4.test(host);
}

/**
 * Whether sending the API key to `baseUrl` would cross a network in clear: plain `http:` to a host that
 * is not loopback, unless the operator opted in. An unparsable URL is not judged here (the schema is).
 */
export function exposesKeyInClear(baseUrl: string, allowInsecureHttp: boolean): boolean {
  return !allowInsecureHttp && isPlainHttpToRemote(baseUrl);
}

/** Whether `address` is plain `http:` to a host that is not loopback (an unparsable URL is not judged here). */
export function isPlainHttpToRemote(address: string): boolean {
  if (!URL.canParse(address)) return false;
  const url = new URL(address);
  return url.protocol === 'http:' && !isLoopbackHost(url.hostname);
}

/** The config error text for {@link exposesKeyInClear}; it names the key that allows it. */
export const INSECURE_UPSTREAM_MESSAGE =
  'must be https:// (the API key would cross the network in clear); plain http:// is accepted for a ' +
  'loopback host (127.0.0.0/8, ::1, localhost) or with upstream.allowInsecureHttp: true';
