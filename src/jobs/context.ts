import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { AccessState, Plan, RateBudget } from '../budget/index.js';
import type { ChannelSender } from '../channels/types.js';
import type { Config } from '../config/schema.js';
import type { Logger } from '../ops/logger.js';
import type { Metrics } from '../ops/metrics.js';
import type { Notices } from '../ops/notices.js';
import type { EventLog, SnapshotStore } from '../positions/index.js';
import type { MuteStore } from '../routing/index.js';
import type { UpstreamClient } from '../upstream/index.js';
import type { DigestStore } from './digest-store.js';
import type { IssuerDirectory } from './directory.js';
import type { WatchedIssuer } from './watchlist.js';

/** What may change on a config reload: read afresh by every job. */
export interface Settings {
  config: Config;
  plan: Plan;
  /** The watchlist bound to ids; names resolve at each sweep against the directory. */
  watched: WatchedIssuer[];
  senders: ReadonlyMap<string, ChannelSender>;
  /** Fingerprint of the configured upstream URL and key: a revocation binds the key it refused. */
  fingerprint: string;
}

/** The queues a process adds jobs to. */
export interface Queues {
  sweep: Queue;
  poll: Queue;
  digest: Queue;
  deliver(channel: string): Queue;
}

/** Everything a job processor needs, passed in (no singletons). */
export interface JobContext {
  settings(): Settings;
  prefix: string;
  redis: Redis;
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
  eventLog: EventLog;
  directory: IssuerDirectory;
  mutes: MuteStore;
  notices: Notices;
  digests: DigestStore;
  queues: Queues;
}
