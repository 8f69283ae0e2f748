function backoffDelay(retry, baseMs, random) {
  return Math.floor(baseMs * 2 ** retry * random());
}
export {
  backoffDelay
};
