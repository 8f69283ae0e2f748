/** An error from ioredis or BullMQ as a log line carries it: no stack, no credentials. */
export interface RedisErrorFields {
  type: string;
  message: string;
  code?: string;
}

// `redis://user:pass@host` or `rediss://:pass@host`: whatever stands between `//` and `@` is credentials.
const URL_CREDENTIALS = /(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi;

/** Credentials in any URL of `text` replaced by `[redacted]`; a message may quote the URL it failed on. */
export function redactUrlCredentials(text: string): string {
  return text.replace(URL_CREDENTIALS, '$1[redacted]@');
}

/** The type, code and first message line of an error, credentials removed: what a log line should show. */
export function redisErrorFields(error: unknown): RedisErrorFields {
  if (!(error instanceof Error)) return { type: typeof error, message: redactUrlCredentials(String(error)) };
  const message = redactUrlCredentials(error.message.split('\n')[0] ?? '');
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  return code === undefined ? { type: error.name, message } : { type: error.name, message, code };
}

// Socket-level failures: the server went away, refused, or could not be reached.
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// What ioredis and BullMQ say, without a code, when a command meets a closed connection; and, during a
// Sentinel or Cluster failover, while no master is reachable yet or a blocked command was cut off.
const CONNECTION_MESSAGES = [
  /^Connection is closed\.?$/,
  /^connect E[A-Z]+/,
  /^Stream isn't writeable/,
  /^All sentinels are unreachable/,
  /^Failed to refresh slots cache/,
  /^CLUSTERDOWN /,
  /^UNBLOCKED /,
];

/**
 * Whether an error means the connection to Redis is down (as opposed to a failed command or a bug):
 * such errors repeat on every reconnect attempt until Redis is back.
 */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  if ('code' in error && typeof error.code === 'string' && CONNECTION_CODES.has(error.code)) return true;
  return CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message));
}
