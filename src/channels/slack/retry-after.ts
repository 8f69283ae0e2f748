/**
 * Milliseconds from a Slack `Retry-After` header, which Slack sends as whole seconds.
 * `undefined` when absent or not a plain number of seconds.
 */
export function parseRetryAfterSeconds(header: string | null): number | undefined {
  const value = header?.trim();
  if (!value || !/^\d+$/.test(value)) return undefined;
  const ms = Number(value) * 1000;
  return Number.isSafeInteger(ms) ? ms : undefined;
}
