/** A mute request that cannot be stored: no usable target, or a duration that is not positive. */
export class InvalidMuteError extends Error {
  override readonly name = 'InvalidMuteError';

  constructor(
    message: string,
    readonly scope: string,
    readonly target: string,
  ) {
    super(message);
  }
}

/** Type guard for {@link InvalidMuteError}. */
export function isInvalidMuteError(error: unknown): error is InvalidMuteError {
  return error instanceof InvalidMuteError;
}
