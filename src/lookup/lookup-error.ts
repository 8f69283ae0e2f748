/**
 * An issuer or holder a user named (on the command line or in the console's forms) that names nothing,
 * or several things: the message says which and the closest names. The CLI exits 2 on it (a usage error);
 * the console shows the message on its form.
 */
export class LookupError extends Error {
  override readonly name = 'LookupError';
}

/** Type guard for {@link LookupError}. */
export function isLookupError(error: unknown): error is LookupError {
  return error instanceof LookupError;
}
