import { AccessState, RateBudget } from '../budget/index.js';
import { durableReplicas } from '../config/schema/redis.js';
import type { Config } from '../config/schema.js';
import type { JobContext, Queues, Settings } from '../jobs/context.js';
import { reportRolledBack } from '../jobs/state-kept.js';
import { ChannelRegistry } from '../state/channel-registry.js';
import { IssuerDirectory } from '../state/directory.js';
import { Durability } from '../state/durability.js';
import { StateEpoch } from '../state/epoch.js';
import { EventLog } from '../state/event-log.js';
import { keyRoot, ledgerRoot } from '../state/keys.js';
import { MuteStore } from '../state/mute-store.js';
import { noticeChannels } from '../state/notice-routing.js';
import { Notices } from '../state/notices.js';
import { Outbox } from '../state/outbox.js';
import { PollHealth } from '../state/poll-health.js';
import type { RedisClient } from '../state/redis-connection.js';
import { sentinelReplicas } from '../state/sentinel-replicas.js';
import { SnapshotStore } from '../state/snapshot-store.js';
import { StateMark } from '../state/state-mark.js';
import { SubscriberStore } from '../state/subscriber-store.js';
import type { Logger } from '../telemetry/logger.js';
import type { Metrics } from '../telemetry/metrics.js';
import type { UpstreamClient } from '../upstream/index.js';
import { budgetCaps } from './connections.js';

/** What the stores of one process are built on. */
interface ContextDeps {
  redis: RedisClient;
  logger: Logger;
  now: () => Date;
  metrics: Metrics;
  processId: string;
  /** The credential whose ledger the budget counts in. */
  ledger: string;
  settings: () => Settings;
  upstream: UpstreamClient;
  probe: UpstreamClient;
  /** The queues, opened on first use (a refused start must leave Redis as it found it). */
  queues: () => Queues;
}

/** Every store of the deployment on one Redis, under the config's key root, and the parts jobs share. */
export function buildContext(config: Config, deps: ContextDeps): JobContext {
  const { redis, settings } = deps;
  const prefix = keyRoot(config.redis.prefix);
  const nowMs = () => deps.now().getTime();
  const ctx: JobContext = {
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
      channelsFor: (severity) => noticeChannels(settings().config, severity),
    }),
    outbox: new Outbox(redis, prefix),
    channels: new ChannelRegistry(redis, prefix),
    get queues() {
      return deps.queues();
    },
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
    sentinelReplicas: sentinelReplicas(() => settings().config.redis, nowMs),
    onRollback: (rollback) => reportRolledBack(ctx, rollback),
    now: nowMs,
    logger: deps.logger,
  });
  return ctx;
}
