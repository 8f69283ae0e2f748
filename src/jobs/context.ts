import type { Queue } from 'bullmq';
import type { AccessState, Plan, RateBudget } from '../budget/index.js';
import type { SubscriberMail } from '../channels/subscriber-mail.js';
import type { ChannelSender } from '../channels/types.js';
import type { Config } from '../config/schema.js';
import type { ChannelRegistry } from '../state/channel-registry.js';
import type { IssuerDirectory } from '../state/directory.js';
import type { Durability } from '../state/durability.js';
import type { StateEpoch } from '../state/epoch.js';
import type { EventLog } from '../state/event-log.js';
import type { MuteStore } from '../state/mute-store.js';
import type { Notices } from '../state/notices.js';
import type { Outbox } from '../state/outbox.js';
import type { PollHealth } from '../state/poll-health.js';
import type { RedisClient } from '../state/redis-connection.js';
import type { SnapshotStore } from '../state/snapshot-store.js';
import type { StateMark } from '../state/state-mark.js';
import type { SubscriberStore } from '../state/subscriber-store.js';
import type { Logger } from '../telemetry/logger.js';
import type { Metrics } from '../telemetry/metrics.js';
import type { UpstreamClient } from '../upstream/index.js';
import type { WatchedIssuer } from './watchlist.js';

/** What may change on a config reload: read afresh by every job. */
export interface Settings {
  config: Config;
  plan: Plan;
  /** The watchlist bound to ids; names resolve at each sweep against the directory. */
  watched: WatchedIssuer[];
  senders: ReadonlyMap<string, ChannelSender>;
  /**
   * Issuers polled only because a subscriber follows them: the configured channels are not told of
   * them (the operator's watchlist did not name them). Absent: none.
   */
  subscriberOnly?: ReadonlySet<string>;
  /** Subscribers' e-mail (one shared transport), when the config has a `subscribers` section. */
  subscriberMail?: SubscriberMail | undefined;
  /** Fingerprint of the configured upstream URL and key: a revocation binds the key it refused. */
  fingerprint: string;
}

/** The queues a process adds jobs to. */
export interface Queues {
  sweep: Queue;
  poll: Queue;
  digest: Queue;
}

/** Everything a job processor needs, passed in (no singletons). */
export interface JobContext {
  settings(): Settings;
  /** The hash-tagged key root of the deployment (`{redis.prefix}`): see state/keys.ts. */
  prefix: string;
  /** This process, as leases and the workers hash name it. */
  processId: string;
  redis: RedisClient;
  now: () => Date;
  logger: Logger;
  metrics: Metrics;
  /** Guarded client for polling: takes budget tokens, never the reserve. */
  upstream: UpstreamClient;
  /** Guarded client allowed while access is revoked: the hourly probe. */
  probe: UpstreamClient;
  budget: RateBudget;
  access: AccessState;
  snapshots: SnapshotStore;
  /** Per-issuer poll health: due since, failure streaks, 404 backoff. */
  pollHealth: PollHealth;
  /** The identity of the Redis state, to tell a loss from a new deployment. */
  epoch: StateEpoch;
  /** This process's high-water mark of the state: a lower one read means Redis lost writes. */
  stateMark: StateMark;
  /** The gate before each dependent send: the replicas hold what it depends on (redis.durability). */
  durability: Durability;
  eventLog: EventLog;
  directory: IssuerDirectory;
  mutes: MuteStore;
  /** Traders managed at runtime, each with their own watchlist (routing/subscriber.ts). */
  subscribers: SubscriberStore;
  notices: Notices;
  outbox: Outbox;
  /** Every channel the deployment ran with: a removed one still has an outbox to account for. */
  channels: ChannelRegistry;
  queues: Queues;
}
