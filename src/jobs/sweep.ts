import { isAccessRevokedError, isBudgetExhaustedError } from '../budget/index.js';
import type { Snapshot } from '../positions/index.js';
import {
  isNoApiAccessError,
  isRateLimitedError,
  isUnauthorizedError,
  type UpstreamClient,
} from '../upstream/index.js';
import type { IssuerList } from '../upstream/schemas.js';
import type { JobContext } from './context.js';
import { stateKeys } from './keys.js';
import { pollJobId } from './queues.js';
import { describeProblem, resolveWatchlist, type WatchedIssuer } from './watchlist.js';

/** What a sweep did, for logs, metrics and tests. */
export type SweepResult =
  | { outcome: 'polled'; due: number; watched: number; lastUpdated: string | null }
  | { outcome: 'unchanged'; watched: number; lastUpdated: string | null }
  | { outcome: 'revoked' | 'budget' | 'blocked' };

/** A failed poll changes nothing and is retried a few times; the next sweep plans it again anyway. */
const POLL_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 5_000, jitter: 0.5 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
} as const;

/** The data of a poll job. */
export interface PollJobData {
  issuerId: string;
  issuerName: string;
  /** Why this poll was planned: the dataset moved, the snapshot is stale, or there is none yet. */
  reason: 'new' | 'changed' | 'stale' | 'interval';
}

/**
 * One sweep: one `GET /issuers` (the gate), then a poll job for each watched issuer whose snapshot is
 * older than the dataset, older than `maxStaleness`, or missing. Polls are deduplicated by issuer and
 * dataset version while pending, so overlapping sweeps enqueue each poll once.
 */
export async function runSweep(ctx: JobContext): Promise<SweepResult> {
  try {
    const result = await sweepOnce(ctx);
    ctx.metrics.sweeps.inc({ outcome: result.outcome });
    return result;
  } catch (error) {
    ctx.metrics.sweeps.inc({ outcome: 'failed' });
    throw error;
  }
}

async function sweepOnce(ctx: JobContext): Promise<SweepResult> {
  const list = await fetchDirectory(ctx);
  if ('outcome' in list) return list;
  const now = ctx.now();
  await ctx.directory.save(list.data, list.last_updated, now);
  const { config, plan } = ctx.settings();
  const { watched, problems } = resolveWatchlist(config.watchlist, list.data);
  await reportWatchlistProblems(ctx, problems.map(describeProblem));

  const snapshots = await ctx.snapshots.getMany(watched.map((w) => w.id));
  const missing = await missingIssuers(ctx, watched);
  const due = watched.flatMap((issuer) => {
    if (missing.has(issuer.id)) return [];
    const reason = pollReason(snapshots.get(issuer.id), list.last_updated, now.getTime(), {
      gate: plan.gate,
      maxStalenessMs: plan.maxStalenessMs,
      intervalMs: plan.sweepIntervalMs,
    });
    return reason ? [{ issuer, reason }] : [];
  });
  const version = datasetVersion(list.last_updated, now.getTime(), plan);
  await ctx.queues.poll.addBulk(
    due.map(({ issuer, reason }) => ({
      name: 'poll',
      data: { issuerId: issuer.id, issuerName: issuer.name, reason } satisfies PollJobData,
      opts: {
        // Deduplicated only while pending: a fixed job id would also block every later sweep once a
        // poll of this version failed or met a revoked key, and the issuer would wait for the next dataset.
        deduplication: {
          id: pollJobId(
            issuer.id,
            reason === 'changed' || reason === 'new' ? version : `${reason}-${version}`,
          ),
        },
        ...POLL_JOB_OPTIONS,
      },
    })),
  );
  await ctx.redis.hset(stateKeys(ctx.prefix).sweep, {
    lastSweepAt: now.toISOString(),
    lastUpdated: list.last_updated ?? '',
    lastDue: String(due.length),
    watched: String(watched.length),
  });
  ctx.metrics.lastSweepAt.set(now.getTime() / 1000);
  if (due.length === 0) {
    ctx.metrics.sweepsSkippedByGate.inc();
    return { outcome: 'unchanged', watched: watched.length, lastUpdated: list.last_updated };
  }
  ctx.logger.info(
    { due: due.length, watched: watched.length, lastUpdated: list.last_updated },
    'sweep enqueued polls',
  );
  return { outcome: 'polled', due: due.length, watched: watched.length, lastUpdated: list.last_updated };
}

/** Decides whether one issuer needs a poll now, and why. Pure. */
export function pollReason(
  snapshot: Snapshot | undefined,
  lastUpdated: string | null,
  nowMs: number,
  policy: { gate: boolean; maxStalenessMs: number; intervalMs: number },
): PollJobData['reason'] | undefined {
  if (!snapshot) return 'new';
  const age = nowMs - Date.parse(snapshot.polledAt);
  if (policy.gate && lastUpdated !== null) {
    const seen = snapshot.lastUpdated === null ? Number.NaN : Date.parse(snapshot.lastUpdated);
    if (!(seen >= Date.parse(lastUpdated))) return 'changed';
    return age >= policy.maxStalenessMs ? 'stale' : undefined;
  }
  // Without a usable gate, the planner's interval is what keeps the day within budget.
  return age >= policy.intervalMs * 0.95 ? 'interval' : undefined;
}

function datasetVersion(
  lastUpdated: string | null,
  nowMs: number,
  plan: { sweepIntervalMs: number },
): string {
  if (lastUpdated !== null && !Number.isNaN(Date.parse(lastUpdated))) return `v${Date.parse(lastUpdated)}`;
  return `t${Math.floor(nowMs / plan.sweepIntervalMs)}`;
}

async function fetchDirectory(
  ctx: JobContext,
): Promise<IssuerList | { outcome: 'revoked' | 'budget' | 'blocked' }> {
  let client: UpstreamClient = ctx.upstream;
  await ctx.access.reconcile(ctx.settings().fingerprint);
  const access = await ctx.access.get();
  if (access.state !== 'ok') {
    // At most one request an hour, from any process, asks whether access came back.
    if (!(await ctx.access.claimProbe())) return { outcome: 'revoked' };
    client = ctx.probe;
  }
  try {
    return await client.listIssuers();
  } catch (error) {
    if (isBudgetExhaustedError(error)) return { outcome: error.reason === 'blocked' ? 'blocked' : 'budget' };
    if (isAccessRevokedError(error) || isUnauthorizedError(error) || isNoApiAccessError(error)) {
      return { outcome: 'revoked' };
    }
    if (isRateLimitedError(error)) return { outcome: 'blocked' };
    throw error;
  }
}

async function missingIssuers(ctx: JobContext, watched: readonly WatchedIssuer[]): Promise<Set<string>> {
  if (watched.length === 0) return new Set();
  const keys = stateKeys(ctx.prefix);
  const flags = await ctx.redis.mget(...watched.map((w) => keys.missing(w.id)));
  return new Set(watched.filter((_, index) => flags[index] !== null).map((w) => w.id));
}

async function reportWatchlistProblems(ctx: JobContext, problems: string[]): Promise<void> {
  if (problems.length > 0) {
    await ctx.notices.raise('watchlist', 'warning', 'Watchlist entries do not resolve', problems.join('\n'));
  } else {
    await ctx.notices.clear('watchlist', 'Every watchlist entry resolves again.');
  }
}
