import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/** An address as configured: an IPv4 address Node reports as IPv4-mapped IPv6 (`::ffff:a.b.c.d`) unwrapped. */
function plain(address: string): string {
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
}

/**
 * The address a request comes from, which the sign-in throttle counts by. From a proxy in `trusted`, the
 * last address of `X-Forwarded-For` (the one that proxy appended; earlier ones the client may have
 * written); from anywhere else the socket's, so a client cannot pick its own address.
 */
export function clientAddress(request: IncomingMessage, trusted: readonly string[]): string {
  const socket = plain(request.socket.remoteAddress ?? 'unknown');
  if (!trusted.some((proxy) => plain(proxy) === socket)) return socket;
  const header = request.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').at(-1)?.trim();
  return forwarded !== undefined && isIP(forwarded) !== 0 ? plain(forwarded) : socket;
}
