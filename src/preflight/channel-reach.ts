import { type HostTarget, reachHost } from '../channels/reach-host.js';
import type { ChannelSender } from '../channels/types.js';
import type { ChannelConfig } from '../config/schema.js';
import type { Secret } from '../config/secret.js';
import { UnresolvedSecret } from '../config/unresolved-secret.js';
import { within } from '../time/within.js';

// `check` proves each channel reachable without sending: its host first (DNS, TCP, TLS: which step
// failed is the first thing an operator needs), then the sender's own verify (SMTP connect, STARTTLS and
// AUTH; Slack's auth.test), each bounded so a black-holed host costs seconds, not minutes.

/** Each step of reaching a host (resolve, connect, handshake) is given this long. */
export const REACH_STEP_MS = 5_000;

/** A sender's own verify, after its host was reached. */
export const VERIFY_MS = 10_000;

/** The host of an http(s) URL; undefined when it does not parse (the URL check reports that). */
function urlTarget(url: Secret | string): HostTarget | undefined {
  if (url instanceof UnresolvedSecret) return undefined;
  try {
    const parsed = new URL(typeof url === 'string' ? url : url.reveal());
    const tls = parsed.protocol === 'https:';
    if (!tls && parsed.protocol !== 'http:') return undefined;
    // URL keeps an IPv6 literal in brackets; the resolver and the socket take it bare.
    const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
    return { host, port: Number(parsed.port) || (tls ? 443 : 80), tls };
  } catch {
    return undefined;
  }
}

type EmailConfig = Extract<ChannelConfig, { kind: 'email' }>;

/** The SMTP server as nodemailer connects to it: `smtps:` or `secure` is TLS at once, else port 587 by default. */
function smtpTarget(config: EmailConfig): HostTarget | undefined {
  if (config.smtpUrl !== undefined) {
    if (config.smtpUrl instanceof UnresolvedSecret) return undefined;
    try {
      const url = new URL(config.smtpUrl.reveal());
      const tls = url.protocol === 'smtps:';
      return {
        host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: Number(url.port) || (tls ? 465 : 587),
        tls,
      };
    } catch {
      return undefined;
    }
  }
  const tls = config.secure === true;
  return {
    host: config.host ?? 'localhost',
    port: config.port ?? (tls ? 465 : 587),
    tls,
    smtpStartTls: !tls,
  };
}

/** The host a channel connects to when it sends; none for the console. */
export function channelTarget(channel: ChannelConfig): HostTarget | undefined {
  switch (channel.kind) {
    case 'slack':
    case 'teams':
      return urlTarget(channel.webhookUrl);
    case 'webhook':
      return urlTarget(channel.url);
    case 'slack-app':
      return urlTarget(channel.apiUrl);
    case 'email':
      return smtpTarget(channel);
    default:
      return undefined;
  }
}

/**
 * The kinds whose verify talks to their host (SMTP's connect and AUTH, Slack's auth.test): their host is
 * reached first, so a failure names its step. The others verify their URL's shape, which goes first.
 */
const VERIFY_TALKS: ReadonlySet<ChannelConfig['kind']> = new Set(['email', 'slack-app']);

/**
 * Proves one channel reachable without sending: its host (DNS, TCP, TLS) within {@link REACH_STEP_MS}
 * a step, and its sender's verify within {@link VERIFY_MS}. Resolves to what was proven; throws a
 * HostUnreachableError naming the failed step, the sender's DeliveryError, or a TimedOutError.
 */
export async function verifyChannel(
  channel: ChannelConfig,
  sender: Pick<ChannelSender, 'verify'>,
  limits: { stepMs: number; verifyMs: number } = { stepMs: REACH_STEP_MS, verifyMs: VERIFY_MS },
): Promise<string> {
  const target = channelTarget(channel);
  const reach = () => (target === undefined ? Promise.resolve(undefined) : reachHost(target, limits.stepMs));
  const verify = () => within(sender.verify(), limits.verifyMs, `${channel.kind} verify`);
  let verified: string;
  let reached: string | undefined;
  if (VERIFY_TALKS.has(channel.kind)) {
    reached = await reach();
    verified = await verify();
  } else {
    verified = await verify();
    reached = await reach();
  }
  return reached === undefined ? verified : `${verified}; ${reached}`;
}
