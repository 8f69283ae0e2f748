import { AccessState, RateBudget } from "../budget/index.js";
import { durableReplicas } from "../config/schema/redis.js";
import { reportRolledBack } from "../jobs/state-kept.js";
import { ChannelRegistry } from "../state/channel-registry.js";
import { IssuerDirectory } from "../state/directory.js";
import { Durability } from "../state/durability.js";
import { StateEpoch } from "../state/epoch.js";
import { EventLog } from "../state/event-log.js";
import { keyRoot, ledgerRoot } from "../state/keys.js";
import { MuteStore } from "../state/mute-store.js";
import { noticeChannels } from "../state/notice-routing.js";
import { Notices } from "../state/notices.js";
import { Outbox } from "../state/outbox.js";
import { PollHealth } from "../state/poll-health.js";
import { SnapshotStore } from "../state/snapshot-store.js";
import { StateMark } from "../state/state-mark.js";
import { SubscriberStore } from "../state/subscriber-store.js";
import { budgetCaps } from "./connections.js";
function buildContext(config, deps) {
  const { redis, settings } = deps;
  const prefix = keyRoot(config.redis.prefix);
  const nowMs = () => deps.now().getTime();
  const ctx = {
    settings,
    prefix,
    processId: deps.processId,
    redis,
    now: deps.now,
    logger: deps.logger,
    metrics: deps.metrics,
    upstream: deps.upstream,
    probe: deps.probe,
    budget: new RateBudget(redis, { ledger: ledgerRoot(deps.ledger), ...budgetCaps(config) }, nowMs),
    access: new AccessState(redis, prefix, nowMs),
    snapshots: new SnapshotStore(redis, prefix),
    pollHealth: new PollHealth(redis, prefix),
    epoch: new StateEpoch(redis, prefix),
    stateMark: new StateMark(redis, prefix),
    get durability() {
      return durability;
    },
    eventLog: new EventLog(redis, prefix),
    directory: new IssuerDirectory(redis, prefix),
    mutes: new MuteStore(redis, prefix, nowMs),
    subscribers: new SubscriberStore(redis, prefix, deps.now),
    notices: new Notices(redis, prefix, {
      logger: deps.logger,
      now: deps.now,
      opsChannel: () => settings().config.ops.channel,
      channelsFor: (severity) => noticeChannels(settings().config, severity)
    }),
    outbox: new Outbox(redis, prefix),
    channels: new ChannelRegistry(redis, prefix),
    get queues() {
      return deps.queues();
    }
  };
  const durability = new Durability({
    mark: ctx.stateMark,
    root: prefix,
    settings: () => {
      const { redis: section } = settings().config;
      const { timeout, noticeAfter } = section.durability;
      return { ...durableReplicas(section), timeoutMs: timeout, noticeAfterMs: noticeAfter };
    },
    notices: ctx.notices,
    onRollback: (rollback) => reportRolledBack(ctx, rollback),
    now: nowMs,
    logger: deps.logger
  });
  return ctx;
}
export {
  buildContext
};
