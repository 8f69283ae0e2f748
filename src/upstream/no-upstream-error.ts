/**
 * The config has no `upstream` section (a registers-only deployment), and something asked the upstream API:
 * a CLI command such as `issuers` exits 2 on it, naming the key.
 */
export class NoUpstreamError extends Error {
  override readonly name = 'NoUpstreamError';
  /** The config key whose absence this is. */
  readonly path = 'upstream';

  constructor() {
    super(
      'no upstream API configured: the config has no `upstream` section (this deployment reads the registers of `sources` only)',
    );
  }
}

/** Type guard for {@link NoUpstreamError}. */
export function isNoUpstreamError(error: unknown): error is NoUpstreamError {
  return error instanceof NoUpstreamError;
}
