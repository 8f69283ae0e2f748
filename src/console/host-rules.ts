import { isIP } from 'node:net';
import { isLoopbackHost } from '../config/upstream-url.js';

/** A host the endpoint serves besides loopback: a name, and a port when the entry named one. */
interface HostEntry {
  hostname: string;
  port: string | undefined;
}

/** The names the HTTP endpoint answers to (DNS rebinding defence), built from the `http` section. */
export interface HostRules {
  readonly entries: readonly HostEntry[];
}

/** A parsed `Host` or origin: lower-case hostname (IPv6 bracketed) and its port, the scheme's default when absent. */
interface HostPort {
  hostname: string;
  port: string;
  /** As the browser writes it in an origin: `name` or `name:port`, the default port left out. */
  host: string;
}

// What a Host header may hold: no userinfo, path, query or backslash that the URL parser would reinterpret.
const HOST_TEXT = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

function parseUrlHost(url: URL): HostPort {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return { hostname: url.hostname.toLowerCase(), port, host: url.host.toLowerCase() };
}

/** Parses a `Host` header (`name`, `name:port`, `[::1]:port`); undefined when it is anything else. */
export function parseHostHeader(text: string | undefined): HostPort | undefined {
  if (text === undefined || !HOST_TEXT.test(text)) return undefined;
  try {
    return parseUrlHost(new URL(`http://${text}`));
  } catch {
    return undefined;
  }
}

/** The rules for an `http` section: its `allowedHosts`, and the host of its `publicUrl`. */
export function hostRules(http: {
  allowedHosts: readonly string[];
  publicUrl?: string | undefined;
}): HostRules {
  const entries: HostEntry[] = [];
  for (const text of http.allowedHosts) {
    const parsed = parseHostHeader(text);
    // An entry names its port only when it was written with one.
    if (parsed)
      entries.push({ hostname: parsed.hostname, port: /:\d+$/.test(text) ? parsed.port : undefined });
  }
  if (http.publicUrl !== undefined && URL.canParse(http.publicUrl)) {
    const url = new URL(http.publicUrl);
    entries.push({ hostname: url.hostname.toLowerCase(), port: url.port === '' ? undefined : url.port });
  }
  return { entries };
}

function configured(rules: HostRules, at: HostPort): boolean {
  return rules.entries.some(
    (e) => e.hostname === at.hostname && (e.port === undefined || e.port === at.port),
  );
}

/** Whether a parsed hostname is an IP address (v4, or v6 in brackets) rather than a name. */
function isAddress(hostname: string): boolean {
  return isIP(hostname.replace(/^\[(.*)\]$/, '$1')) !== 0;
}

/**
 * Whether a request naming this `Host` is served: loopback names and the configured names, and any IP
 * address. Rebinding needs a name (a page's origin is the name the attacker's DNS answers for); a page
 * whose origin is an address was served by that address, so it is this endpoint's own page. Addresses
 * keep Prometheus' `dns_sd_configs` (which scrape by address) and the container health checks working.
 * Loopback names pass on any port: port forwards (`ssh -L`, a remapped container port) keep working.
 */
export function hostAllowed(rules: HostRules, hostHeader: string | undefined): boolean {
  const at = parseHostHeader(hostHeader);
  return at !== undefined && (isLoopbackHost(at.hostname) || isAddress(at.hostname) || configured(rules, at));
}

/** The host an `Origin` (or, without one, a `Referer`) names; undefined when neither names an http(s) one. */
function sourceOf(origin: string | undefined, referer: string | undefined): HostPort | undefined {
  const text = origin ?? referer;
  if (text === undefined || !URL.canParse(text)) return undefined;
  const url = new URL(text);
  return url.protocol === 'http:' || url.protocol === 'https:' ? parseUrlHost(url) : undefined;
}

/**
 * Whether a POST comes from a page of the console: its `Origin` (or `Referer` when the browser sent no
 * Origin) is the request's own host, an allowed one, or a configured name. Neither header, `Origin: null`,
 * or another host: refused. A loopback origin counts only as the request's own host, port included, so
 * another local web app (`localhost:3000`) cannot post.
 */
export function postSourceAllowed(
  rules: HostRules,
  headers: { host?: string | undefined; origin?: string | undefined; referer?: string | undefined },
): boolean {
  const from = sourceOf(headers.origin, headers.referer);
  if (from === undefined || !hostAllowed(rules, headers.host)) return false;
  return from.host === parseHostHeader(headers.host)?.host || configured(rules, from);
}
