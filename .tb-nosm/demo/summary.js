const plural = (count, one, many) => `${count} ${count === 1 ? one : many}`;
function summaryLine(demo, redis, out) {
  const { slack, email, digest } = demo.files.counts;
  const captured = `Captured ${plural(slack, "Slack message", "Slack messages")}, ${plural(email, "email alert", "email alerts")} and ${plural(digest, "digest", "digests")} in ${out}/.`;
  const removed = demo.removedKeys();
  const keys = removed === void 0 ? `The keys under ${demo.prefix} could not be removed.` : `Removed ${plural(removed, "key", "keys")} under ${demo.prefix}.`;
  const server = redis.child ? " Stopped the demo redis-server." : "";
  return `${captured} ${keys}${server}`;
}
export {
  summaryLine
};
