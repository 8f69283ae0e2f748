import { createTransport } from "nodemailer";
import { collectSecrets } from "../../config/secret.js";
import { burstCoalesce, mailParts, poolRate, sendParts } from "./burst.js";
import { deliveryFields } from "./headers.js";
import { renderEmail } from "./render.js";
import { toDeliveryError } from "./smtp-error.js";
import { unsubscribeHeaders, withSubscriberLinks } from "./subscriber-links.js";
import { DELIVERY_HEADER, MESSAGE_TYPE_HEADER } from "./headers.js";
const TIMEOUTS = { connectionTimeout: 15e3, greetingTimeout: 15e3, socketTimeout: 2e4 };
function transportOptions(config) {
  const auth = config.auth ? { user: config.auth.user, pass: config.auth.pass.reveal() } : void 0;
  const common = {
    pool: true,
    maxConnections: config.maxConnections,
    // The pool keeps the channel's rate over every e-mail, the parts of one burst delivery included.
    ...poolRate(config.ratePerSecond),
    ...TIMEOUTS,
    // We only send our own strings: no attachments or images fetched from paths or URLs.
    disableFileAccess: true,
    disableUrlAccess: true
  };
  if (config.smtpUrl) return { ...common, url: config.smtpUrl.reveal(), auth };
  return { ...common, host: config.host, port: config.port, secure: config.secure, auth };
}
function smtpServerLabel(config) {
  if (config.smtpUrl) {
    try {
      const url = new URL(config.smtpUrl.reveal());
      const port = url.port || (url.protocol === "smtps:" ? "465" : "587");
      return `${url.hostname}:${port}`;
    } catch {
      return "(smtpUrl)";
    }
  }
  return `${config.host ?? "localhost"}:${config.port ?? (config.secure ? 465 : 587)}`;
}
function mailTransport(config) {
  return createTransport(transportOptions(config));
}
const createEmailChannel = (config, deps) => {
  const transporter = mailTransport(config);
  return {
    ...mailSender(transporter, config, deps, { to: config.to }),
    async close() {
      transporter.close();
    }
  };
};
function mailSender(transporter, config, deps, recipient) {
  const server = smtpServerLabel(config);
  const secrets = collectSecrets(config);
  return {
    async send(message, progress) {
      const channel = { name: config.name, from: config.from };
      const links = recipient.links?.();
      const sendOne = async (part) => {
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
            headers: { ...fields.headers, ...links ? unsubscribeHeaders(links) : {} }
          });
        } catch (error) {
          throw toDeliveryError(error, { server, action: "send", secrets });
        }
      };
      await sendParts(mailParts(message, progress?.deliveryId ?? ""), progress, sendOne);
    },
    coalesce: burstCoalesce(config.maxConnections, config.ratePerSecond),
    async verify() {
      try {
        await transporter.verify();
      } catch (error) {
        throw toDeliveryError(error, { server, action: "verify", secrets });
      }
      return `SMTP ${server} ok`;
    },
    async close() {
    }
  };
}
export {
  DELIVERY_HEADER,
  MESSAGE_TYPE_HEADER,
  createEmailChannel,
  mailSender,
  mailTransport,
  smtpServerLabel
};
