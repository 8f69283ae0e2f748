/**
 * Network error codes that mean the configured URL cannot work as written, whatever the retry: the host
 * name does not exist (NXDOMAIN) or the URL is malformed. A delivery that meets one is parked at once
 * rather than retried for minutes; a resolver that is down answers EAI_AGAIN, which stays a retry.
 */
const PERMANENT_CODES: ReadonlySet<string> = new Set(['ENOTFOUND', 'ERR_INVALID_URL', 'UND_ERR_INVALID_ARG']);

/** True when a transport error code says the URL itself is wrong (see {@link PERMANENT_CODES}). */
export function isUnreachableUrl(code: string | undefined): boolean {
  return code !== undefined && PERMANENT_CODES.has(code);
}
