/** The prefix that marks a Standard Webhooks HMAC secret, and that its libraries strip before decoding. */
export const STANDARD_WEBHOOKS_SECRET_PREFIX = 'whsec_';

// The spec's symmetric key size: at least 24 bytes (192 bits), at most 64 (512 bits).
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;

// Canonical base64 with padding: the decoder of the `standardwebhooks` libraries rejects anything else.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** How to make a secret, told in every message about one; never quotes the value itself. */
const HOW_TO_MAKE =
  `must be a Standard Webhooks secret: "${STANDARD_WEBHOOKS_SECRET_PREFIX}" followed by the base64 of ` +
  `${MIN_KEY_BYTES} to ${MAX_KEY_BYTES} random bytes (make one with: echo "whsec_$(openssl rand -base64 32)")`;

/**
 * What is wrong with a webhook signing secret, or undefined when it is a `whsec_<base64>` key of a size the
 * Standard Webhooks spec allows. A plain passphrase is refused rather than guessed at: read as base64 it
 * would be another key than the receiver's, and every signature would fail without saying why.
 */
export function standardWebhooksSecretProblem(value: string): string | undefined {
  if (!value.startsWith(STANDARD_WEBHOOKS_SECRET_PREFIX)) return HOW_TO_MAKE;
  const encoded = value.slice(STANDARD_WEBHOOKS_SECRET_PREFIX.length);
  if (!BASE64.test(encoded)) return `${HOW_TO_MAKE}; the part after the prefix is not base64`;
  const bytes = Buffer.from(encoded, 'base64').length;
  if (bytes < MIN_KEY_BYTES || bytes > MAX_KEY_BYTES) return `${HOW_TO_MAKE}; it decodes to ${bytes} bytes`;
  return undefined;
}
