import { channelRegistry, createSender } from "../channels/registry.js";
import { recordedSender } from "../delivery/recorded-sender.js";
import { RedisChannelMemory } from "../state/channel-memory.js";
import { DeliveryRecord } from "../state/delivery-record.js";
import { unavailableClient, unavailableSender, unlessSecretUnread } from "../unread-secret-parts.js";
import { buildUpstreamClients, noUpstreamClients } from "../upstream-clients.js";
import { talliedClients } from "../upstream-tally.js";
function upstreamClients(config, deps) {
  if (config.upstream === void 0) return noUpstreamClients();
  return talliedClients(buildUpstreamClients(config.upstream, config, deps), deps.budget);
}
function upstreamClientsOrUnavailable(config, deps) {
  return unlessSecretUnread(
    () => upstreamClients(config, deps),
    (error) => ({
      polling: unavailableClient(error),
      probe: unavailableClient(error),
      interactive: unavailableClient(error)
    })
  );
}
function channelSenders(config, deps) {
  const registry = channelRegistry(deps.consoleOut);
  const record = recordDeps(config, deps);
  const build = (channel) => {
    const memory = new RedisChannelMemory(deps.redis, deps.prefix, channel.name);
    return recordedSender(
      unlessSecretUnread(() => createSender(channel, { now: deps.now, memory }, registry), unavailableSender),
      channel,
      record
    );
  };
  return new Map(config.channels.map((channel) => [channel.name, build(channel)]));
}
function recordDeps(config, deps) {
  return {
    record: new DeliveryRecord(deps.redis, deps.prefix),
    limits: { maxAgeMs: config.retention.deliveries, maxRows: config.retention.deliveryRows },
    logger: deps.logger
  };
}
function clientDepsOf(ctx, metrics) {
  const { budget, access, notices, logger, now } = ctx;
  return { budget, access, notices, logger, now, metrics };
}
export {
  channelSenders,
  clientDepsOf,
  recordDeps,
  upstreamClients,
  upstreamClientsOrUnavailable
};
