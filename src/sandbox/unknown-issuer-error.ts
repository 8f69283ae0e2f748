/** A scenario helper was asked about an issuer the scenario does not have. */
export class UnknownIssuerError extends Error {
  override readonly name = 'UnknownIssuerError';

  constructor(readonly issuerId: string) {
    super(`unknown issuer ${JSON.stringify(issuerId)}`);
  }
}

/** Type guard for {@link UnknownIssuerError}. */
export function isUnknownIssuerError(error: unknown): error is UnknownIssuerError {
  return error instanceof UnknownIssuerError;
}
