/** A stored snapshot is not valid JSON or does not match the schema; the issuer id says which one. */
export class SnapshotCorruptError extends Error {
  override readonly name = 'SnapshotCorruptError';

  constructor(
    readonly issuerId: string,
    readonly key: string,
    options: { cause?: unknown } = {},
  ) {
    super(`stored snapshot of issuer ${issuerId} (${key}) is corrupt`, options);
  }
}

/** Type guard for {@link SnapshotCorruptError}. */
export function isSnapshotCorruptError(error: unknown): error is SnapshotCorruptError {
  return error instanceof SnapshotCorruptError;
}
