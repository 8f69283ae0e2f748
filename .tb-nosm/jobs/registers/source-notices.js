function sourceNotReadKey(source) {
  return `source-not-read-${source}`;
}
function sourceStaleKey(source) {
  return `source-stale-${source}`;
}
export {
  sourceNotReadKey,
  sourceStaleKey
};
