/** A promise that did not settle in the time given it; `what` says which. */
export class TimedOutError extends Error {
  override readonly name = 'TimedOutError';
}

/**
 * `promise`, or a rejection with a {@link TimedOutError} after `ms`: for a command that could wait for
 * ever (a write resent on each reconnect to a replica answering READONLY).
 */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOutError(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
