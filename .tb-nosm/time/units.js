const SECOND_MS = 1e3;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
export {
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  SECOND_MS
};
