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

/**
 * Streams a download with the security headers, secrets redacted from each chunk (chunks are whole
 * records, so a secret is never cut across two). A failure part-way ends the connection, so a client
 * sees a broken download, never an error page inside the file; the error is returned for the log.
 */
export async function sendChunks(
  response: ServerResponse,
  download: { type: string; filename: string; chunks: AsyncIterable<string> },
  secrets: readonly string[] = [],
): Promise<unknown> {
  response.writeHead(200, {
    'content-type': download.type,
    'content-disposition': `attachment; filename="${download.filename}"`,
    ...SECURITY_HEADERS,
  });
  try {
    for await (const chunk of download.chunks) {
      const text = secrets.length > 0 ? redactText(chunk, secrets) : chunk;
      if (!response.write(text)) await new Promise((resolve) => response.once('drain', resolve));
    }
    response.end();
    return undefined;
  } catch (error) {
    response.destroy();
    return error;
  }
}
