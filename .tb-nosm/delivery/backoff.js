function backoffMs(baseMs, attempt, random = Math.random) {
  const full = baseMs * 2 ** Math.max(0, attempt - 1);
  return Math.round(full * (1 - 0.5 * random()));
}
export {
  backoffMs
};
