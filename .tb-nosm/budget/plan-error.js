class PlanError extends Error {
  constructor(watchlistSize, perDay, reserve) {
    const available = perDay - reserve;
    super(
      `a watchlist of ${watchlistSize} issuers needs ${watchlistSize} requests for one sweep but only ${available} a day are available to polling (perDay ${perDay} - reserve ${reserve})`
    );
    this.watchlistSize = watchlistSize;
    this.perDay = perDay;
    this.reserve = reserve;
  }
  watchlistSize;
  perDay;
  reserve;
  name = "PlanError";
}
function isPlanError(error) {
  return error instanceof PlanError;
}
export {
  PlanError,
  isPlanError
};
