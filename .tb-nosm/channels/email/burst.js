function poolRate(ratePerSecond) {
  const rateLimit = Math.max(1, Math.floor(ratePerSecond));
  return { rateLimit, rateDelta: Math.round(1e3 * rateLimit / ratePerSecond) };
}
function burstCoalesce(maxConnections, ratePerSecond) {
  const perDelivery = maxConnections === 1 ? 1 : Math.max(1, Math.ceil(ratePerSecond));
  return (groups) => Math.min(groups.length, perDelivery);
}
function mailParts(message, deliveryId) {
  if (message.type !== "batch") return [{ message, deliveryId }];
  return message.groups.map((group, index) => ({
    message: { type: "events", issuer: group.issuer, events: group.events },
    deliveryId: `${deliveryId}-${index + 1}`
  }));
}
async function sendParts(parts, progress, sendOne) {
  const from = progress?.partsSent ?? 0;
  const results = await Promise.allSettled(parts.slice(from).map(sendOne));
  const failedAt = results.findIndex((result) => result.status === "rejected");
  const leading = failedAt === -1 ? results.length : failedAt;
  if (parts.length > 1 && leading > 0) await progress?.onPartSent?.(from + leading);
  const failed = results[failedAt];
  if (failed?.status === "rejected") throw failed.reason;
}
export {
  burstCoalesce,
  mailParts,
  poolRate,
  sendParts
};
