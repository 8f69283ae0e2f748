import type { IncomingMessage } from 'node:http';
import type { Logger } from '../telemetry/logger.js';
import { hostAllowed, hostRules } from './host-rules.js';

/** How many refused host names are remembered (logged once each); past it, refusals are no longer logged. */
const REMEMBERED_HOSTS = 256;

/** What a refused host is logged as: the header cut short, so a hostile one cannot flood the log line. */
function shown(host: string | undefined): string {
  return host === undefined ? '(none)' : host.slice(0, 100);
}

/** Decides whether the endpoint serves a request's `Host`, and logs each refused host once per process. */
export interface HostGate {
  /** True when the request's `Host` is served; false (logged the first time for that host) when it is to be answered 421. */
  admits(request: IncomingMessage): boolean;
}

/** A gate over the current `http` section (read per request, so a reload's `allowedHosts` applies at once). */
export function createHostGate(
  http: () => { allowedHosts: readonly string[]; publicUrl?: string | undefined },
  logger: Logger,
): HostGate {
  const logged = new Set<string>();
  return {
    admits(request) {
      const { host } = request.headers;
      if (hostAllowed(hostRules(http()), host)) return true;
      const name = shown(host);
      if (!logged.has(name) && logged.size < REMEMBERED_HOSTS) {
        logged.add(name);
        logger.warn(
          { host: name, path: (request.url ?? '/').split('?')[0]?.slice(0, 100) },
          'refused a request for a host name this endpoint does not serve (421; a DNS-rebinding page, or a name to add to http.allowedHosts); further requests for it are not logged',
        );
      }
      return false;
    },
  };
}
