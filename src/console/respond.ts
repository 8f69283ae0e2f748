import type { ServerResponse } from 'node:http';
import { redactText } from '../config/secret.js';
import { escapeHtml } from './html.js';

// No inline script or style is ever needed: anything injected would be inert even if escaping failed.
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on the console's own forms.
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};

/**
 * Every secret value as it may appear in a page: raw and HTML-escaped. A last line of defence: no page
 * renders a secret, but an error text from elsewhere (an upstream message, a parked delivery's error)
 * might hold one.
 */
export function pageSecrets(secrets: Iterable<string>): string[] {
  return [...secrets].flatMap((s) => [s, escapeHtml(s)]);
}

/** Writes a console answer with the security headers, secrets redacted from its body. */
export function send(
  response: ServerResponse,
  status: number,
  type: string,
  body: string,
  extra: Record<string, string | string[]> = {},
  secrets: readonly string[] = [],
): void {
  response.writeHead(status, { 'content-type': type, ...SECURITY_HEADERS, ...extra });
  response.end(secrets.length > 0 ? redactText(body, secrets) : body);
}
