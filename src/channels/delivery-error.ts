/** What the deliver job should do with a failed send. */
export type DeliveryOutcome = 'retry' | 'rate-limit' | 'park';

/** A failed send, classified: retry with backoff, pause the channel for `retryAfterMs`, or park at once. */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
  readonly outcome: DeliveryOutcome;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(
    message: string,
    details: {
      outcome: DeliveryOutcome;
      status?: number;
      code?: string;
      retryAfterMs?: number;
      cause?: unknown;
    },
  ) {
    super(message, { cause: details.cause });
    this.outcome = details.outcome;
    this.status = details.status;
    this.code = details.code;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** Type guard for {@link DeliveryError}. */
export function isDeliveryError(error: unknown): error is DeliveryError {
  return error instanceof DeliveryError;
}
