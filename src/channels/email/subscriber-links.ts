import type { PreparedHeader } from './headers.js';
import { escapeHtml } from './html.js';
import type { RenderedEmail } from './rendered.js';

/** A subscriber's signed links at the time of a send. */
export interface SubscriberLinks {
  manage: string;
  unsubscribe: string;
}

/**
 * RFC 8058 one-click unsubscribe: a mail client POSTs `List-Unsubscribe=One-Click` to the https URL,
 * never a GET (a scanner that follows links changes nothing). Prepared: nodemailer must not fold or
 * encode the angle brackets.
 */
export function unsubscribeHeaders(links: SubscriberLinks): Record<string, PreparedHeader> {
  return {
    'List-Unsubscribe': { prepared: true, value: `<${links.unsubscribe}>` },
    'List-Unsubscribe-Post': { prepared: true, value: 'List-Unsubscribe=One-Click' },
  };
}

/**
 * The rendered e-mail with the subscriber's links at its foot, in both parts: appended after the
 * render, so every kind of message (events, batch, digest) carries them the same way. Pure.
 */
export function withSubscriberLinks(rendered: RenderedEmail, links: SubscriberLinks): RenderedEmail {
  const text = `${rendered.text.trimEnd()}\n\nManage my alerts: ${links.manage}\nUnsubscribe: ${links.unsubscribe}\n`;
  const block =
    `<p class="sw-links" style="margin:16px 24px;font-size:12px;line-height:1.6">` +
    `<a href="${escapeHtml(links.manage)}">Manage my alerts</a> · ` +
    `<a href="${escapeHtml(links.unsubscribe)}">Unsubscribe</a></p>`;
  const at = rendered.html.lastIndexOf('</body>');
  const html =
    at < 0 ? `${rendered.html}${block}` : `${rendered.html.slice(0, at)}${block}${rendered.html.slice(at)}`;
  return { ...rendered, text, html };
}
