const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A webhook URL that passed {@link checkWebhookUrl}, with a description safe to print. */
export type WebhookUrlCheck = { ok: true; description: string } | { ok: false; problem: string };

/**
 * Checks a webhook URL's shape without sending: https, or http only to this machine (a local stand-in).
 * The description shows the scheme and host only; the path is the secret.
 */
export function checkWebhookUrl(raw: string): WebhookUrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, problem: 'is not a URL' };
  }
  const local = LOCAL_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
    return { ok: false, problem: 'must use https (http only for 127.0.0.1 or localhost)' };
  }
  if (url.username || url.password) return { ok: false, problem: 'must not carry credentials' };
  if (url.pathname === '/' || url.pathname === '') return { ok: false, problem: 'has no path' };
  return { ok: true, description: `webhook ${url.protocol}//${url.host}/[redacted]` };
}
