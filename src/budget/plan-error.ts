/** The watchlist cannot be polled within the daily budget at all; the message states the numbers. */
export class PlanError extends Error {
  override readonly name = 'PlanError';

  constructor(
    readonly watchlistSize: number,
    readonly perDay: number,
    readonly reserve: number,
  ) {
    const available = perDay - reserve;
    super(
      `a watchlist of ${watchlistSize} issuers needs ${watchlistSize} requests for one sweep but only ${available} a day are available to polling (perDay ${perDay} - reserve ${reserve})`,
    );
  }
}

/** Type guard for {@link PlanError}. */
export function isPlanError(error: unknown): error is PlanError {
  return error instanceof PlanError;
}
