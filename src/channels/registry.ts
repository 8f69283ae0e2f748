import type { Writable } from 'node:stream';
import type { ChannelConfig, ChannelKind } from '../config/schema.js';
import { consoleChannelFactory } from './console/index.js';
import { createEmailChannel } from './email/index.js';
import { createSlackChannel } from './slack/index.js';
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
  } satisfies Registry;
}

/** Builds the sender of one configured channel. */
export function createSender(
  config: ChannelConfig,
  deps: ChannelDeps,
  registry: Registry = channelRegistry(),
): ChannelSender {
  switch (config.kind) {
    case 'slack':
      return registry.slack(config, deps);
    case 'email':
      return registry.email(config, deps);
    case 'webhook':
      return registry.webhook(config, deps);
    case 'console':
      return registry.console(config, deps);
  }
}
