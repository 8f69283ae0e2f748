import { Outbox } from "../state/outbox.js";
function deliveryParts(parts, redis) {
  const { settings, prefix, processId, now, logger, metrics, notices, durability, subscribers } = parts;
  return {
    settings,
    prefix,
    processId,
    now,
    logger,
    metrics,
    notices,
    durability,
    subscribers,
    redis,
    outbox: new Outbox(redis, prefix)
  };
}
export {
  deliveryParts
};
