import type { Writable } from 'node:stream';
import { channelRegistry, createSender } from '../channels/registry.js';
import type { ChannelSender } from '../channels/types.js';
import type { ChannelConfig, Config } from '../config/schema.js';
import { type RecordDeps, recordedSender } from '../delivery/recorded-sender.js';
import { RedisChannelMemory } from '../state/channel-memory.js';
import { DeliveryRecord } from '../state/delivery-record.js';
import type { RedisClient } from '../state/redis-connection.js';
import type { Logger } from '../telemetry/logger.js';
import { unavailableClient, unavailableSender, unlessSecretUnread } from '../unread-secret-parts.js';
import { buildUpstreamClients, type ClientDeps, noUpstreamClients } from '../upstream-clients.js';
import { talliedClients } from '../upstream-tally.js';
import type { Clients } from './live-settings.js';

/**
 * The guarded upstream clients of a config, each call counted by purpose for the console's overview;
 * without `upstream` (registers only), clients that reject every request without counting it.
 */
export function upstreamClients(config: Config, deps: ClientDeps): Clients {
  if (config.upstream === undefined) return noUpstreamClients();
  return talliedClients(buildUpstreamClients(config.upstream, config, deps), deps.budget);
}

/** {@link upstreamClients}, or clients that throw the unread key's error (a command loaded without it). */
export function upstreamClientsOrUnavailable(config: Config, deps: ClientDeps): Clients {
  return unlessSecretUnread(
    () => upstreamClients(config, deps),
    (error) => ({
      polling: unavailableClient(error),
      probe: unavailableClient(error),
      interactive: unavailableClient(error),
    }),
  );
}

/** What the channel senders record each attempt's answer with. */
interface SenderDeps {
  redis: RedisClient;
  prefix: string;
  logger: Logger;
  now: () => Date;
  /** Where console channels write; stdout by default. */
  consoleOut?: Writable;
}

/**
 * One sender per configured channel, each recording every attempt's answer (state/delivery-record.ts);
 * a channel whose secret was not read gets a sender that throws its error.
 */
export function channelSenders(config: Config, deps: SenderDeps): Map<string, ChannelSender> {
  const registry = channelRegistry(deps.consoleOut);
  const record = recordDeps(config, deps);
  const build = (channel: ChannelConfig) => {
    const memory = new RedisChannelMemory(deps.redis, deps.prefix, channel.name);
    return recordedSender(
      unlessSecretUnread(() => createSender(channel, { now: deps.now, memory }, registry), unavailableSender),
      channel,
      record,
    );
  };
  return new Map(config.channels.map((channel) => [channel.name, build(channel)]));
}

/** Where senders record each attempt's answer: the record of sent messages, within its retention. */
export function recordDeps(
  config: Config,
  deps: Pick<SenderDeps, 'redis' | 'prefix' | 'logger'>,
): RecordDeps {
  return {
    record: new DeliveryRecord(deps.redis, deps.prefix),
    limits: {
      maxAgeMs: config.retention.deliveries,
      maxRows: config.retention.deliveryRows,
      maxBytes: config.retention.deliveryMemory * 1024 * 1024,
    },
    logger: deps.logger,
  };
}

/** What the upstream clients take from a process's context: the budget's stores, notices, a clock, metrics. */
export function clientDepsOf(
  ctx: Pick<ClientDeps, 'budget' | 'access' | 'notices' | 'logger' | 'now'>,
  metrics: ClientDeps['metrics'],
): ClientDeps {
  const { budget, access, notices, logger, now } = ctx;
  return { budget, access, notices, logger, now, metrics };
}
