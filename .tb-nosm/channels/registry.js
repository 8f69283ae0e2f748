import { consoleChannelFactory } from "./console/index.js";
import { createEmailChannel } from "./email/index.js";
import { createSlackChannel } from "./slack/index.js";
import { createSlackAppChannel } from "./slack-app/index.js";
import { createTeamsChannel } from "./teams/index.js";
import { createWebhookChannel } from "./webhook/index.js";
function channelRegistry(consoleOut) {
  return {
    slack: createSlackChannel,
    email: createEmailChannel,
    webhook: createWebhookChannel,
    console: consoleChannelFactory(consoleOut),
    teams: createTeamsChannel,
    "slack-app": createSlackAppChannel
  };
}
function factoryOf(registry, kind) {
  return registry[kind];
}
function createSender(config, deps, registry = channelRegistry()) {
  return factoryOf(registry, config.kind)(config, deps);
}
export {
  channelRegistry,
  createSender
};
