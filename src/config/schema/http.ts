import { isIP } from 'node:net';
import { z } from 'zod';
import { isLoopbackHost } from '../upstream-url.js';
import { duration, secret } from './value-types.js';

// Also a numeric string, so that `${HTTP_PORT:-9464}` (interpolation yields text) works.
const portNumber = z
  .union([z.number(), z.string().regex(/^\d+$/, 'must be a port number').transform(Number)])
  .pipe(z.number().int().min(0).max(65_535));

// Also the text `true` or `false`, so that `${SHORTWATCH_HTTP_CONSOLE:-false}` works the same way.
const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((text) => text === 'true')], {
  error: 'must be true or false',
});

// Empty is no token, so that `token: ${SHORTWATCH_HTTP_TOKEN:-}` may stay in the file while the variable is
// unset: the console then stays where no token is needed (loopback), or the check below names the key.
// A token a browser or a script types is guessed over the network: at least 32 characters, and not a few
// characters repeated (e.g. `openssl rand -base64 32`).
const TOKEN_MIN = 32;
const TOKEN_DISTINCT = 8;
const consoleToken = z
  .string()
  .refine(
    (token) => token.length >= TOKEN_MIN && new Set(token).size >= TOKEN_DISTINCT,
    `must be at least ${TOKEN_MIN} random characters (e.g. openssl rand -base64 32)`,
  )
  .pipe(secret);
const optionalToken = z
  .preprocess((value) => (value === '' ? undefined : value), consoleToken.optional())
  .optional();

const authSchema = z
  .strictObject({
    token: optionalToken.describe(
      'Token that opens the web console (sign-in form or `Authorization: Bearer`): at least 32 random characters. Required while the console is on and it is published: `http.host` not loopback, `http.publicUrl` set, or an `http.allowedHosts` entry that is not loopback. Empty counts as unset. `/healthz`, `/readyz` and `/metrics` never ask for it.',
    ),
    sessionTtl: duration
      .refine((ms) => ms >= 60_000, 'must be at least 1m')
      .prefault('12h')
      .describe(
        'How long a console sign-in lasts: a random session id kept in Redis for this long, ended at once by signing out or by a change of `http.auth.token`.',
      ),
    signInAttempts: z
      .number()
      .int()
      .positive()
      .default(10)
      .describe(
        'Sign-in attempts one client address may make per `http.auth.signInWindow` (right or wrong), counting `Authorization: Bearer` requests with a wrong token; more are answered 429. Behind `http.trustedProxies` the client address is the one the proxy forwards.',
      ),
    signInWindow: duration
      .refine((ms) => ms >= 1_000, 'must be at least 1s')
      .prefault('15m')
      .describe("The window `http.auth.signInAttempts` counts in, from an address's first attempt."),
  })
  .describe('Access to the web console.');

// A Host header's shape: a name, an IPv4 address or a bracketed IPv6 one, then an optional port.
const HOST_ENTRY = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** Whether binding `host` keeps the endpoint on this machine (a name, or an IPv4/IPv6 address). */
export function isLoopbackBind(host: string): boolean {
  // `::1` as a bind address has no brackets; isLoopbackHost compares URL hostnames, which have them.
  return isLoopbackHost(host) || host === '::1';
}

/** Where a console is reachable from beyond this machine, in words, or undefined when it is not. */
function publishedAt(http: {
  host: string;
  publicUrl?: string | undefined;
  allowedHosts: string[];
}): string | undefined {
  if (!isLoopbackBind(http.host)) return `on ${http.host} (not loopback)`;
  if (http.publicUrl !== undefined) return `at http.publicUrl ${http.publicUrl}`;
  const remote = http.allowedHosts.find((entry) => !isLoopbackHost(entry.replace(/:\d+$/, '')));
  return remote === undefined ? undefined : `to http.allowedHosts ${remote} (not loopback)`;
}

/** Schema of the `http` section. */
export const httpSchema = z
  .strictObject({
    port: portNumber.optional().describe('Port; the endpoint is off when unset.'),
    host: z
      .string()
      .default('127.0.0.1')
      .describe(
        'Interface to bind. Loopback by default; any other address (e.g. `0.0.0.0` in a container) needs `http.auth.token` while the console is on.',
      ),
    console: flag
      .default(true)
      .describe(
        'Serve the web console (overview, issuers, holders, events, deliveries, mutes) beside the probes.',
      ),
    auth: authSchema.prefault({}),
    allowedHosts: z
      .array(
        z
          .string()
          .refine(
            (entry) => HOST_ENTRY.test(entry),
            'must be a host name or address, optionally with :port (no scheme, no path)',
          ),
      )
      .default([])
      .describe(
        'Host names the endpoint answers to besides loopback (127.0.0.0/8, localhost, [::1]), IP addresses and the host of `http.publicUrl`: e.g. `shortwatch.example.com` (any port) or `shortwatch:9464` (that port only). A request for any other `Host` is answered 421 (DNS rebinding), except `/healthz`; a console POST whose `Origin` (or `Referer`) names another host is refused 403.',
      ),
    trustedProxies: z
      .array(z.string().refine((entry) => isIP(entry) !== 0, 'must be an IP address'))
      .default([])
      .describe(
        'Addresses of the reverse proxies in front of the endpoint (e.g. `127.0.0.1`). A request from one of them is taken to come from the last address its proxy appended to `X-Forwarded-For`, which the sign-in throttle counts by; from any other address the header is ignored.',
      ),
    publicUrl: z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .optional()
      .describe(
        "The URL people open the console at, behind a reverse proxy (e.g. `https://shortwatch.example.com/`): its host is allowed like `http.allowedHosts`, and when it is https the console's cookies are `Secure`.",
      ),
  })
  .superRefine((http, ctx) => {
    // The console can retry deliveries and mute alerts: published beyond this machine, only with a token.
    if (http.port === undefined || !http.console || http.auth.token !== undefined) return;
    const published = publishedAt(http);
    if (published === undefined) return;
    ctx.addIssue({
      code: 'custom',
      path: ['auth', 'token'],
      message: `is required to serve the console ${published}: set a token, or set http.console: false`,
    });
  })
  .describe('HTTP endpoint for the web console, /healthz, /readyz and /metrics.');
