import { createTransport } from 'nodemailer';
import type { ChannelConfig } from '../../config/schema.js';
import { collectSecrets } from '../../config/secret.js';
import type { ChannelDeps, ChannelFactory, ChannelSender } from '../types.js';
import { burstCoalesce, type MailPart, mailParts, poolRate, sendParts } from './burst.js';
import { deliveryFields } from './headers.js';
import { renderEmail } from './render.js';
import { toDeliveryError } from './smtp-error.js';
import { type SubscriberLinks, unsubscribeHeaders, withSubscriberLinks } from './subscriber-links.js';

export { DELIVERY_HEADER, MESSAGE_TYPE_HEADER } from './headers.js';

type EmailConfig = Extract<ChannelConfig, { kind: 'email' }>;

/** Socket timeouts: a hung SMTP server must fail the job, not hold a worker (nodemailer waits minutes). */
const TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 20_000 } as const;

/** nodemailer options for a pooled transport; the only place the SMTP secrets are revealed. */
function transportOptions(config: EmailConfig) {
  const auth = config.auth ? { user: config.auth.user, pass: config.auth.pass.reveal() } : undefined;
  const common = {
    pool: true as const,
    maxConnections: config.maxConnections,
    // The pool keeps the channel's rate over every e-mail, the parts of one burst delivery included.
    ...poolRate(config.ratePerSecond),
    ...TIMEOUTS,
    // We only send our own strings: no attachments or images fetched from paths or URLs.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
  // Credentials in the URL take precedence over `auth` (nodemailer merges the URL's last).
  if (config.smtpUrl) return { ...common, url: config.smtpUrl.reveal(), auth };
  return { ...common, host: config.host, port: config.port, secure: config.secure, auth };
}

/** `host:port` of the SMTP server, for messages: never the URL, which may hold credentials. */
export function smtpServerLabel(config: Pick<EmailConfig, 'smtpUrl' | 'host' | 'port' | 'secure'>): string {
  if (config.smtpUrl) {
    try {
      const url = new URL(config.smtpUrl.reveal());
      const port = url.port || (url.protocol === 'smtps:' ? '465' : '587');
      return `${url.hostname}:${port}`;
    } catch {
      return '(smtpUrl)';
    }
  }
  return `${config.host ?? 'localhost'}:${config.port ?? (config.secure ? 465 : 587)}`;
}

/** Who one sender's e-mails go to, and the subscriber's links when it is a subscriber's. */
export interface MailRecipient {
  to: readonly string[];
  /** Fresh signed links at each send: "Manage my alerts" in the message, one-click unsubscribe in its headers. */
  links?: () => SubscriberLinks | undefined;
}

/** A pooled SMTP transport built from an e-mail channel's config (its server, rate and credentials). */
export function mailTransport(config: EmailConfig) {
  return createTransport(transportOptions(config));
}

/**
 * The email channel: renders each message and sends it over pooled SMTP as text + HTML. A burst's
 * delivery carries several issuers and goes out as one e-mail per issuer, side by side over the pool.
 */
export const createEmailChannel: ChannelFactory<'email'> = (config, deps) => {
  const transporter = mailTransport(config);
  return {
    ...mailSender(transporter, config, deps, { to: config.to }),
    async close() {
      transporter.close();
    },
  };
};

/**
 * A sender over a transport it does not own (closing it is the owner's): the channel's own, or the one
 * shared by every subscriber, so thousands of subscribers share one pool and its rate.
 */
export function mailSender(
  transporter: ReturnType<typeof mailTransport>,
  config: EmailConfig,
  deps: Pick<ChannelDeps, 'now'>,
  recipient: MailRecipient,
): ChannelSender {
  const server = smtpServerLabel(config);
  const secrets = collectSecrets(config);
  return {
    async send(message, progress) {
      const channel = { name: config.name, from: config.from };
      const links = recipient.links?.();
      const sendOne = async (part: MailPart) => {
        const rendered = renderEmail(part.message, { timezone: config.timezone });
        const { subject, text, html } = links ? withSubscriberLinks(rendered, links) : rendered;
        const partProgress = progress && { ...progress, deliveryId: part.deliveryId };
        const fields = deliveryFields(part.message, channel, partProgress);
        try {
          await transporter.sendMail({
            from: config.from,
            to: [...recipient.to],
            subject,
            text,
            html,
            date: deps.now(),
            ...fields,
            headers: { ...fields.headers, ...(links ? unsubscribeHeaders(links) : {}) },
          });
        } catch (error) {
          throw toDeliveryError(error, { server, action: 'send', secrets });
        }
      };
      await sendParts(mailParts(message, progress?.deliveryId ?? ''), progress, sendOne);
    },

    coalesce: burstCoalesce(config.maxConnections, config.ratePerSecond),

    async verify() {
      try {
        await transporter.verify();
      } catch (error) {
        throw toDeliveryError(error, { server, action: 'verify', secrets });
      }
      return `SMTP ${server} ok`;
    },

    async close() {},
  };
}
