const STANDARD_WEBHOOKS_SECRET_PREFIX = "whsec_";
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const HOW_TO_MAKE = `must be a Standard Webhooks secret: "${STANDARD_WEBHOOKS_SECRET_PREFIX}" followed by the base64 of ${MIN_KEY_BYTES} to ${MAX_KEY_BYTES} random bytes (make one with: echo "whsec_$(openssl rand -base64 32)")`;
function standardWebhooksSecretProblem(value) {
  if (!value.startsWith(STANDARD_WEBHOOKS_SECRET_PREFIX)) return HOW_TO_MAKE;
  const encoded = value.slice(STANDARD_WEBHOOKS_SECRET_PREFIX.length);
  if (!BASE64.test(encoded)) return `${HOW_TO_MAKE}; the part after the prefix is not base64`;
  const bytes = Buffer.from(encoded, "base64").length;
  if (bytes < MIN_KEY_BYTES || bytes > MAX_KEY_BYTES) return `${HOW_TO_MAKE}; it decodes to ${bytes} bytes`;
  return void 0;
}
export {
  STANDARD_WEBHOOKS_SECRET_PREFIX,
  standardWebhooksSecretProblem
};
