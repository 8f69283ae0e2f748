/** Why a register file was not read: every reason leaves the last good snapshot in place. */
export type NotReadReason =
  | 'http-status'
  | 'transport'
  | 'timeout'
  | 'too-large'
  | 'html-page'
  | 'truncated'
  | 'wrong-header'
  | 'unparseable'
  | 'shrank';

/** A register file that could not be fetched or read; `reason` says which check refused it. */
export class RegisterReadError extends Error {
  override readonly name = 'RegisterReadError';
  readonly reason: NotReadReason;

  constructor(reason: NotReadReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

/** True for a `RegisterReadError`. */
export function isRegisterReadError(error: unknown): error is RegisterReadError {
  return error instanceof RegisterReadError;
}
