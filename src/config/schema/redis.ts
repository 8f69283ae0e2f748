import { z } from 'zod';
import { duration, secret } from './value-types.js';

// A node is written `host:port` (`[::1]:6379` for an IPv6 address), the form Sentinel and
// `redis-cli --cluster` print.
const NODE = /^(?:\[[0-9A-Fa-f:.]+\]|[^\s:[\]]+):(\d{1,5})$/;

const node = z
  .string()
  .regex(NODE, 'must be host:port (e.g. 10.0.0.5:26379)')
  .refine((value) => Number(value.slice(value.lastIndexOf(':') + 1)) <= 65_535, 'port must be at most 65535');

const nodes = (what: string) =>
  z.array(node).min(1, `needs at least one ${what}`).describe(`The ${what}s, each \`host:port\`.`);

const tlsSchema = z
  .strictObject({
    ca: z
      .string()
      .optional()
      .describe('Path of a PEM file with the CA certificates to trust; the system CAs when unset.'),
    servername: z
      .string()
      .optional()
      .describe('Server name to verify the certificate against (SNI), when it differs from the host.'),
    rejectUnauthorized: z
      .boolean()
      .default(true)
      .describe('Refuse a certificate that does not verify. Turn off only for a test Redis.'),
  })
  .describe(
    'TLS to every Redis node of the topology (`tls: {}` uses the system CAs); a `rediss://` url turns it on too.',
  );

const sentinelSchema = z
  .strictObject({
    name: z
      .string()
      .min(1, 'must not be empty')
      .describe('The master group name the sentinels monitor (`sentinel monitor <name> …`).'),
    nodes: nodes('sentinel'),
    username: z.string().optional().describe('ACL user of the sentinels (their own, not the data nodes’).'),
    password: secret.optional().describe('Password of the sentinels (`requirepass` in sentinel.conf).'),
    tls: z
      .boolean()
      .default(false)
      .describe('Reach the sentinels over TLS too, with the settings of `redis.tls`.'),
  })
  .describe(
    'Redis Sentinel: shortwatch asks the sentinels for the current master and follows every failover.',
  );

const clusterSchema = z
  .strictObject({
    nodes: nodes('cluster node'),
  })
  .describe(
    'Redis Cluster (also managed services in cluster mode): a few nodes to start from; the rest are discovered.',
  );

const livenessSchema = z
  .strictObject({
    interval: duration
      .prefault('5s')
      .describe(
        "How often each daemon process sends a probe job through its own BullMQ workers, and a probe through its delivery path (a ping on the deliverers' connection, a message its wake-up subscriber must hear).",
      ),
    timeout: duration
      .prefault('30s')
      .describe(
        'A probe not completed this long while Redis answers means the workers or the delivery path are stuck (e.g. after a failover): the process recreates their connections, and exits 1 with the `process-stuck` notice if that does not help within another timeout.',
      ),
  })
  .describe(
    'Worker liveness: proves, in every daemon process, that its workers still take jobs and its deliverers still reach Redis.',
  );

const durabilitySchema = z
  .strictObject({
    replicas: z
      .union([z.literal('auto'), z.number().int().min(0).max(16)])
      .default('auto')
      .describe(
        "How many replicas must hold a write before a message that depends on it is sent (Redis `WAIT`): the commit of its events, its claim and the previous message's \"sent\" record. `auto`: 1 under `sentinel` or `cluster` when the topology names a replica for the master (the sentinels' list, down ones too, or the slot's replicas in the cluster map), so a master whose replica is down or not yet back after a failover holds its messages (with the `deliveries-not-durable` notice) until one holds them; none for a master run without replicas, and on one node (`url`); 0 turns the wait off. Set 1 or more for a `url` whose master has replicas (a managed primary with a replica behind one endpoint).",
      ),
    timeout: duration
      .prefault('1s')
      .refine((ms) => ms >= 10 && ms <= 3_000, 'must be between 10ms and 3s')
      .describe(
        "How long one `WAIT` may block the deliverers' connection. Not acknowledged in time means not yet durable: the message waits and the deliverer asks again (a replica that keeps up answers in about a millisecond).",
      ),
    noticeAfter: duration
      .prefault('30s')
      .describe(
        'A channel whose next message has waited this long for its replicas raises the critical `deliveries-not-durable` notice (notices themselves are sent without waiting).',
      ),
  })
  .describe(
    "Tell only what a replica holds: before each message with events (or a digest), its deliverer raises the deployment's high-water mark and waits (`WAIT`) until `replicas` replicas acknowledged every write before it. Costs and guarantees per topology: docs/operations.md.",
  );

/** Schema of the `redis` section. */
export const redisSchema = z
  .strictObject({
    url: secret
      .prefault('redis://127.0.0.1:6379')
      .describe(
        'Redis URL of a single node; credentials in it are treated as secret. Used when neither `sentinel` nor `cluster` is set.',
      ),
    sentinel: sentinelSchema.optional(),
    cluster: clusterSchema.optional(),
    username: z
      .string()
      .optional()
      .describe('ACL user on the data nodes (Sentinel and Cluster; a url carries its own).'),
    password: secret
      .optional()
      .describe('Password on the data nodes (Sentinel and Cluster; a url carries its own).'),
    tls: tlsSchema.optional(),
    prefix: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
      .default('shortwatch')
      .describe(
        'Key prefix: every key and queue lives under the hash tag `{prefix}` (one Redis Cluster slot); several deployments on one Redis or cluster use different prefixes.',
      ),
    liveness: livenessSchema.prefault({}),
    durability: durabilitySchema.prefault({}),
  })
  .describe(
    'Redis, shared by every shortwatch process: one node (`url`), Sentinel (`sentinel`) or Cluster (`cluster`); `cluster` wins over `sentinel`, which wins over `url` (`shortwatch check` prints the topology reached).',
  );

/** The `redis` section as parsed. */
export type RedisConfig = z.output<typeof redisSchema>;

/**
 * How many replicas a dependent send waits for: `redis.durability.replicas`, and whether at most the replicas
 * the topology names for the master (`auto` under Sentinel or Cluster: 1, none for a master run without one).
 */
export function durableReplicas(config: RedisConfig): { replicas: number; atMostKnown: boolean } {
  const { replicas } = config.durability;
  if (replicas !== 'auto') return { replicas, atMostKnown: false };
  return { replicas: config.sentinel || config.cluster ? 1 : 0, atMostKnown: true };
}
