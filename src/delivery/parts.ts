import type { SubscriberMail } from '../channels/subscriber-mail.js';
import type { ChannelSender } from '../channels/types.js';
import type { Config } from '../config/schema.js';
import type { Durability } from '../state/durability.js';
import type { Notices } from '../state/notices.js';
import type { Outbox } from '../state/outbox.js';
import type { RedisClient } from '../state/redis-connection.js';
import type { SubscriberStore } from '../state/subscriber-store.js';
import type { Logger } from '../telemetry/logger.js';
import type { Metrics } from '../telemetry/metrics.js';

/** The settings delivery reads afresh at each look (a reload swaps channels and senders). */
interface DeliverySettings {
  config: Config;
  senders: ReadonlyMap<string, ChannelSender>;
  /** Present when the config has a `subscribers` section. */
  subscriberMail?: SubscriberMail | undefined;
}

/** What a channel's deliverer uses: its outbox, its lease's Redis, the notices it raises, one clock. */
export interface DeliveryParts {
  settings(): DeliverySettings;
  /** The hash-tagged key root of the deployment (state/keys.ts). */
  prefix: string;
  /** This process, as the drain lease names it. */
  processId: string;
  redis: RedisClient;
  now: () => Date;
  logger: Logger;
  metrics: Pick<Metrics, 'deliveries'>;
  outbox: Outbox;
  notices: Pick<Notices, 'raise' | 'clear'>;
  /** Issue 30: before a send, the replicas hold what it depends on (state/durability.ts). */
  durability: Pick<Durability, 'beforeSend'>;
  /** The subscribers whose channels (`~<id>`) have outboxes of their own. */
  subscribers: Pick<SubscriberStore, 'get' | 'list'>;
}
