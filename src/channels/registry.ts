import type { Writable } from 'node:stream';
import type { ChannelConfig, ChannelKind } from '../config/schema.js';
import { consoleChannelFactory } from './console/index.js';
import { createEmailChannel } from './email/index.js';
import { createSlackChannel } from './slack/index.js';
import { createSlackAppChannel } from './slack-app/index.js';
import { createTeamsChannel } from './teams/index.js';
import type { ChannelDeps, ChannelFactory, ChannelSender } from './types.js';
import { createWebhookChannel } from './webhook/index.js';

type Registry = { [K in ChannelKind]: ChannelFactory<K> };

/** One factory per channel kind: adding a kind to the schema without wiring it here fails to compile. */
export function channelRegistry(consoleOut?: Writable) {
  return {
    slack: createSlackChannel,
    email: createEmailChannel,
    webhook: createWebhookChannel,
    console: consoleChannelFactory(consoleOut),
    teams: createTeamsChannel,
    'slack-app': createSlackAppChannel,
  } satisfies Registry;
}

/** The factory of one kind; indexing the mapped type with a type parameter keeps kind and config paired. */
function factoryOf<K extends ChannelKind>(registry: Registry, kind: K): ChannelFactory<K> {
  return registry[kind];
}

/**
 * Builds the sender of one configured channel. One lookup, no switch over kinds: a new kind is one schema
 * variant and one registry entry.
 */
export function createSender(
  config: ChannelConfig,
  deps: ChannelDeps,
  registry: Registry = channelRegistry(),
): ChannelSender {
  return factoryOf(registry, config.kind)(config, deps);
}
