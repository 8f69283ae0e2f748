import { z } from 'zod';
import type { Logger } from '../telemetry/logger.js';
import type { Notices } from './notices.js';
import type { RedisClient } from './redis-connection.js';
import { redisErrorFields } from './redis-error-fields.js';

/** What Redis says about evicting keys under memory pressure. */
export type EvictionPolicy =
  | { state: 'noeviction' }
  | { state: 'evicts'; policy: string }
  | { state: 'unknown'; reason: string };

/** The notice key of an evicting Redis (src/state/notices.ts). */
export const EVICTION_NOTICE = 'redis-eviction';

// RESP2 answers CONFIG GET with [name, value]; RESP3 (ioredis 6) with a map.
const configReply = z.union([
  z.tuple([z.string(), z.string()]).transform(([, value]) => value),
  z.object({ 'maxmemory-policy': z.string() }).transform((map) => map['maxmemory-policy']),
]);

const INFO_POLICY = /^maxmemory_policy:(\S+)\s*$/m;

/**
 * Reads Redis' `maxmemory-policy`: CONFIG GET, else the `INFO memory` line (managed services such as
 * ElastiCache disable CONFIG but answer INFO); `unknown`, saying why, when neither answers.
 */
export async function checkEvictionPolicy(redis: RedisClient): Promise<EvictionPolicy> {
  let configProblem: string;
  try {
    const parsed = configReply.safeParse(await redis.config('GET', 'maxmemory-policy'));
    if (parsed.success) return classify(parsed.data);
    configProblem = 'CONFIG GET gave no maxmemory-policy';
  } catch (error) {
    configProblem = `CONFIG GET refused: ${redisErrorFields(error).message}`;
  }
  try {
    const policy = INFO_POLICY.exec(await redis.info('memory'))?.[1];
    if (policy) return classify(policy);
    return { state: 'unknown', reason: `${configProblem}; INFO memory has no maxmemory_policy` };
  } catch (error) {
    return { state: 'unknown', reason: `${configProblem}; INFO refused: ${redisErrorFields(error).message}` };
  }
}

function classify(policy: string): EvictionPolicy {
  return policy === 'noeviction' ? { state: 'noeviction' } : { state: 'evicts', policy };
}

/** One sentence on the policy, for `shortwatch check`, the log and the notice. */
export function describeEvictionPolicy(policy: EvictionPolicy): string {
  switch (policy.state) {
    case 'noeviction':
      return 'redis maxmemory-policy is noeviction';
    case 'evicts':
      return `redis maxmemory-policy is ${policy.policy}, not noeviction: under memory pressure Redis silently drops snapshots (changes in the gap are never told), outbox items (alerts lost) and queued jobs. Set maxmemory-policy noeviction.`;
    case 'unknown':
      return `redis maxmemory-policy could not be checked (${policy.reason}); make sure it is noeviction.`;
  }
}

/**
 * At daemon start: a warning (log and ops notice) when Redis may evict, the notice cleared when it no
 * longer does, an info line when the policy cannot be read. Every start logs an evicting policy, even
 * while its notice is still active from an earlier start.
 */
export async function reportEvictionPolicy(
  policy: EvictionPolicy,
  deps: { logger: Logger; notices: Notices },
): Promise<void> {
  const text = describeEvictionPolicy(policy);
  if (policy.state === 'evicts') {
    const raised = await deps.notices.raise(
      EVICTION_NOTICE,
      'warning',
      'Redis may evict shortwatch state',
      text,
    );
    // A new notice logged itself at warn; an ongoing one did not.
    if (!raised) deps.logger.warn({ notice: EVICTION_NOTICE, policy: policy.policy }, text);
  } else if (policy.state === 'noeviction') {
    await deps.notices.clear(EVICTION_NOTICE, 'Redis maxmemory-policy is noeviction now.');
  } else {
    deps.logger.info({ reason: policy.reason }, text);
  }
}
