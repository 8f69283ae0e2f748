import { isAccessRevokedError, isBudgetExhaustedError } from '../budget/index.js';
import { nextWindowStart } from '../budget/windows.js';
import type { Snapshot } from '../positions/index.js';
import {
  type BlindPace,
  blindListDue,
  blindListIntervalMs,
  selectBlindPolls,
} from '../schedule/blind-polls.js';
import {
  freeTokens,
  gateDecision,
  type IssuerScheduleState,
  learnProfile,
  queuePriority,
  type RefreshProfile,
  refreshesLater,
  refreshTimesKnown,
  seenToday,
  selectPolls,
  snapshotRate,
  uniformProfile,
  untilRefreshMs,
} from '../schedule/index.js';
import { RefreshHistory } from '../schedule/refresh-history.js';
import { stateKeys } from '../state/keys.js';
import type { PollHealthView } from '../state/poll-health.js';
import { mayPoll, pollingState } from '../state/polling-state.js';
import {
  isNoApiAccessError,
  isRateLimitedError,
  isUnauthorizedError,
  type UpstreamClient,
} from '../upstream/index.js';
import type { Issuer, IssuerList } from '../upstream/schemas.js';
import type { JobContext } from './context.js';
import { logDirectoryMoves } from './directory-moves.js';
import { acceptIssuerList } from './directory-shrink.js';
import { envelopeNoticeKey } from './poll-answer.js';
import { CAUSE_TEXT, failureCause } from './poll-failure.js';
import { overdueAfterMs, overdueIssuers, syncOverdueNotices } from './poll-health-report.js';
import { pollJobId } from './queues.js';
import { sweepEvery } from './schedulers.js';
import { checkStateKept } from './state-kept.js';
import { resolveWatchlist, type WatchedIssuer, watchlistProblems } from './watchlist.js';

/** What a sweep did, for logs, metrics and tests. */
export type SweepResult =
  | { outcome: 'polled'; due: number; watched: number; lastUpdated: string | null }
  | { outcome: 'unchanged'; watched: number; lastUpdated: string | null }
  /** A tick with no gate check planned: polls were chosen against the issuer list last saved. */
  | { outcome: 'between-checks'; due: number; watched: number; lastUpdated: string | null }
  | { outcome: 'revoked' | 'budget' | 'blocked' };

/**
 * Finished poll jobs BullMQ keeps, completed: a day's record of what ran (`status`, a look in Redis), and
 * about 1.4 KB each (bench/footprint.ts), so at most some 14 MB.
 */
export const POLL_JOBS_KEPT = 10_000;

/**
 * Failed poll jobs kept: poll health already records every failure by its cause, so these are only the
 * last ones' stack traces to look at. A failed job carries up to three attempts' traces besides its data,
 * a few KB: 2,000 stay under 20 MB even when every poll fails for a day.
 */
export const FAILED_POLL_JOBS_KEPT = 2_000;

/** A failed poll changes nothing and is retried a few times; the next sweep plans it again anyway. */
const POLL_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 5_000, jitter: 0.5 },
  removeOnComplete: { age: 24 * 3600, count: POLL_JOBS_KEPT },
  removeOnFail: { age: 7 * 24 * 3600, count: FAILED_POLL_JOBS_KEPT },
} as const;

/** The data of a poll job. */
export interface PollJobData {
  issuerId: string;
  issuerName: string;
  /**
   * The watchlist entry's `label`: the issuer name this poll's events carry into every message. Routing
   * still sees the upstream's name, and no id or holder key contains it.
   */
  label?: string;
  /**
   * Why this poll was planned: the dataset moved, the snapshot is stale, there is none yet, the
   * interval passed (gate off), or its turn came while the list carries no version (`blind`).
   */
  reason: 'new' | 'changed' | 'stale' | 'interval' | 'blind';
  /** The issuer list's `last_updated` this poll was planned for: what the snapshot records. */
  datasetVersion?: string | null;
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
    if (result.outcome === 'polled' || result.outcome === 'unchanged')
      await ctx.notices.clear('sweep-failing', 'The issuer list answers again; polling goes on.');
    return result;
  } catch (error) {
    ctx.metrics.sweeps.inc({ outcome: 'failed' });
    await reportSweepFailure(ctx, error).catch(() => undefined);
    throw error;
  }
}

/**
 * Without a sweep nothing is planned, so no issuer ever becomes overdue: a sweep that keeps failing
 * (the issuer list answering 5xx, or a body that breaks the schema) is told on its own, once it has
 * lasted as long as an issuer may stay overdue.
 */
async function reportSweepFailure(ctx: JobContext, error: unknown): Promise<void> {
  const { config, plan } = ctx.settings();
  const lastSweepAt = await ctx.redis.hget(stateKeys(ctx.prefix).sweep, 'lastSweepAt');
  const since = lastSweepAt ? Date.parse(lastSweepAt) : Number.NaN;
  const nowMs = ctx.now().getTime();
  if (!(nowMs - since > overdueAfterMs(config, plan))) return;
  const cause = failureCause(error);
  await ctx.notices.raise(
    'sweep-failing',
    'critical',
    'The issuer list cannot be read: nothing is polled',
    `Every sweep since ${lastSweepAt} failed: ${CAUSE_TEXT[cause]} (GET /issuers). No issuer is polled until it answers again.`,
  );
}

/** The sweep: read (the issuer list, the watched issuers' state) → decide (pure, per issuer) → write (polls, marks). */
async function sweepOnce(ctx: JobContext): Promise<SweepResult> {
  const now = ctx.now();
  const gate = await gateThisTick(ctx, new RefreshHistory(ctx.redis, ctx.prefix), now);
  const list = await readList(ctx, gate, now);
  if ('outcome' in list) return list;
  const { config } = ctx.settings();
  const resolved = resolveWatchlist(config.watchlist, list.data);
  const { watched } = resolved;
  await reportWatchlistProblems(ctx, watchlistProblems(config.watchlist, list.data, resolved));
  const read = await readIssuers(ctx, watched);
  const due = await decidePolls(ctx, read, list.last_updated, gate);
  await writeSweep(ctx, read, due, list.last_updated, now);
  const lastUpdated = list.last_updated;
  if (!gate.check)
    return { outcome: 'between-checks', due: due.length, watched: watched.length, lastUpdated };
  if (due.length === 0) {
    ctx.metrics.sweepsSkippedByGate.inc();
    return { outcome: 'unchanged', watched: watched.length, lastUpdated };
  }
  ctx.logger.info({ due: due.length, watched: watched.length, lastUpdated }, 'sweep enqueued polls');
  return { outcome: 'polled', due: due.length, watched: watched.length, lastUpdated };
}

/**
 * The issuer list this sweep plans by: fetched at a gate check (saved, its refresh recorded), else the
 * one saved. A fetched list set aside as partial changes nothing: the saved one plans this sweep.
 */
async function readList(
  ctx: JobContext,
  gate: GateTick,
  now: Date,
): Promise<IssuerList | { outcome: 'revoked' | 'budget' | 'blocked' }> {
  const fetched = gate.check ? await fetchDirectory(ctx) : await savedDirectory(ctx);
  if ('outcome' in fetched || !gate.check) return fetched;
  const sweepKey = stateKeys(ctx.prefix).sweep;
  if (!(await acceptIssuerList(ctx, fetched, await ctx.directory.count(), sweepKey)))
    return savedDirectory(ctx);
  logDirectoryMoves(ctx, await ctx.directory.save(fetched.data, fetched.last_updated, now), fetched.data);
  const previousCheck = Date.parse((await ctx.redis.hget(sweepKey, 'lastCheckAt')) ?? '');
  await ctx.redis.hset(sweepKey, 'lastCheckAt', now.toISOString());
  if (fetched.last_updated !== null) {
    await new RefreshHistory(ctx.redis, ctx.prefix).record(
      fetched.last_updated,
      now.getTime(),
      Number.isNaN(previousCheck) ? null : previousCheck,
    );
  }
  return fetched;
}

/** What the sweep reads of the watched issuers: their snapshots and their poll health. */
interface IssuersRead {
  watched: WatchedIssuer[];
  snapshots: ReadonlyMap<string, Snapshot>;
  /** Issuers whose snapshot cannot be read: planned like new ones, their poll fails and is told. */
  unreadable: ReadonlySet<string>;
  health: PollHealthView;
}

async function readIssuers(ctx: JobContext, watched: WatchedIssuer[]): Promise<IssuersRead> {
  const { snapshots, corrupt } = await ctx.snapshots.readMany(watched.map((w) => w.id));
  const unreadable = new Set(corrupt.map((c) => c.issuerId));
  await checkStateKept(
    ctx,
    watched.filter((w) => !unreadable.has(w.id)),
    snapshots,
  );
  return { watched, snapshots, unreadable, health: await ctx.pollHealth.read() };
}

/**
 * Which issuers to poll now: those whose polling state lets them be asked (not waiting out a backoff),
 * then by the gate's schedule, blind at the budget's pace when the list has no version, or by interval
 * with the gate off.
 */
async function decidePolls(
  ctx: JobContext,
  read: IssuersRead,
  lastUpdated: string | null,
  gate: GateTick,
): Promise<DuePoll[]> {
  const { plan } = ctx.settings();
  const nowMs = ctx.now().getTime();
  const eligible = read.watched.filter((issuer) =>
    mayPoll(
      pollingState({
        health: read.health.issuers.get(issuer.id),
        hasSnapshot: read.snapshots.has(issuer.id) || read.unreadable.has(issuer.id),
        listVersion: lastUpdated,
        nowMs,
        intervalMs: sweepEvery(plan),
      }),
    ),
  );
  const blind = plan.gate && lastUpdated === null;
  await reportUnversioned(ctx, blind, read.watched.length);
  if (blind) return blindPolls(ctx, eligible, read.snapshots, gate);
  if (plan.gate) return scheduledPolls(ctx, eligible, read.snapshots, lastUpdated, gate);
  return eligible.flatMap((issuer): DuePoll[] => {
    const reason = pollReason(read.snapshots.get(issuer.id), lastUpdated, nowMs, {
      gate: plan.gate,
      maxStalenessMs: plan.maxStalenessMs,
      intervalMs: plan.sweepIntervalMs,
    });
    return reason ? [{ issuer, reason, priority: undefined }] : [];
  });
}

/** Writes what the sweep decided: its record, the poll jobs, the due marks, and the overdue notices. */
async function writeSweep(
  ctx: JobContext,
  read: IssuersRead,
  due: readonly DuePoll[],
  lastUpdated: string | null,
  now: Date,
): Promise<void> {
  await ctx.redis.hset(stateKeys(ctx.prefix).sweep, {
    lastSweepAt: now.toISOString(),
    lastUpdated: lastUpdated ?? '',
    lastDue: String(due.length),
    watched: String(read.watched.length),
    // What `poll.confirmClosedShare` is a share of: written before the polls exist, which read it.
    positions: String([...read.snapshots.values()].reduce((n, s) => n + Object.keys(s.positions).length, 0)),
  });
  await ctx.queues.poll.addBulk(due.map((poll) => pollJob(ctx, poll, lastUpdated, now)));
  const dueIds = due.map((d) => d.issuer.id);
  // Due from the time the mark is written, not the sweep's start: a sweep whose Redis calls stalled for
  // seconds (a failover) would otherwise find the issuers it has just marked overdue already.
  const markedAt = ctx.now();
  await ctx.pollHealth.markDue(dueIds, markedAt);
  await reportPollHealth(ctx, read.watched, withDue(read.health, dueIds, markedAt));
  ctx.metrics.lastSweepAt.set(now.getTime() / 1000);
}

/** One poll job, deduplicated per issuer and dataset version (or blind turn) while pending. */
function pollJob(ctx: JobContext, poll: DuePoll, lastUpdated: string | null, now: Date) {
  const { plan } = ctx.settings();
  const { issuer, reason, priority, delayMs } = poll;
  const version = datasetVersion(lastUpdated, now.getTime(), plan);
  return {
    name: 'poll',
    data: {
      issuerId: issuer.id,
      issuerName: issuer.name,
      ...(issuer.label ? { label: issuer.label } : {}),
      reason,
      datasetVersion: lastUpdated,
    } satisfies PollJobData,
    opts: {
      ...(delayMs === undefined ? {} : { delay: delayMs }),
      // Deduplicated for half a sweep interval only: a poll left active by a dead process must not keep
      // the issuer from being planned again at the next sweep (a duplicate that finds the snapshot
      // current spends no token), and a fixed job id would block every later sweep after a failure.
      deduplication: {
        id: pollJobId(issuer.id, dedupeVersion(reason, version, now.getTime() + (delayMs ?? 0))),
        ttl: Math.max(1, Math.floor(sweepEvery(plan) / 2)),
      },
      // The most likely changes first, across sweeps too (BullMQ: 1 is the highest priority).
      ...(priority === undefined ? {} : { priority }),
      ...POLL_JOB_OPTIONS,
    },
  };
}

/** What this tick knows of the gate: whether it checks, the checks left today, the refresh profile. */
interface GateTick {
  check: boolean;
  checksLeft: number;
  profile: RefreshProfile;
  /** Refreshes seen so far in today's day window. */
  seenToday: number;
}

/**
 * Whether this tick checks the gate. With as many checks a day as ticks every tick does (the refresh
 * profile is not needed); otherwise the day's checks are placed where the dataset has refreshed.
 */
async function gateThisTick(ctx: JobContext, history: RefreshHistory, now: Date): Promise<GateTick> {
  const { plan, config } = ctx.settings();
  const dayMs = config.budget.dayWindow;
  const nowMs = now.getTime();
  if (plan.gate) {
    // Read at every tick, an unversioned list would take the tokens its rotation needs (blind-polls.ts).
    const saved = await ctx.directory.load();
    if (saved !== null && saved.lastUpdated === null) return blindGateTick(ctx, saved.issuers, nowMs);
  }
  const slots = Math.ceil(dayMs / sweepEvery(plan));
  if (!plan.gate || plan.gateChecksPerDay >= slots) {
    const left = Math.floor((dayMs - (nowMs % dayMs)) / sweepEvery(plan));
    return { check: true, checksLeft: plan.gate ? left : 0, profile: uniformProfile(), seenToday: 0 };
  }
  const refreshes = await history.list();
  const profile = learnProfile(
    refreshes.map((r) => r.at),
    nowMs,
    dayMs,
  );
  const lastCheckAt = await ctx.redis.hget(stateKeys(ctx.prefix).sweep, 'lastCheckAt');
  const lastCheckMs = lastCheckAt ? Date.parse(lastCheckAt) : Number.NaN;
  const decision = gateDecision({
    nowMs,
    dayMs,
    tickMs: sweepEvery(plan),
    profile,
    checksPerDay: plan.gateChecksPerDay,
    lastCheckMs: Number.isNaN(lastCheckMs) ? null : lastCheckMs,
  });
  return {
    ...decision,
    profile,
    seenToday: seenToday(
      refreshes.map((r) => r.seenAt),
      nowMs,
      dayMs,
    ),
  };
}

/** The issuer list the last check saved; a check when there is none yet. */
async function savedDirectory(
  ctx: JobContext,
): Promise<IssuerList | { outcome: 'revoked' | 'budget' | 'blocked' }> {
  const saved = await ctx.directory.load();
  if (saved === null) return fetchDirectory(ctx);
  return { data: saved.issuers, last_updated: saved.lastUpdated };
}

/** One poll the sweep queues. */
interface DuePoll {
  issuer: WatchedIssuer;
  reason: PollJobData['reason'];
  priority: number | undefined;
  /** A blind poll's place in the tick: it runs this long after the sweep. */
  delayMs?: number;
}

/** What makes a poll job one of a kind while it is pending: the version, or a blind poll's turn. */
function dedupeVersion(reason: PollJobData['reason'], version: string, atMs: number): string {
  if (reason === 'changed' || reason === 'new') return version;
  return reason === 'blind' ? `blind-${atMs}` : `${reason}-${version}`;
}

/**
 * The polls of a sweep over a list without a version: each eligible issuer in turn at the pace the
 * day's tokens allow (after the reserve, the gate checks still due and the polls queued), spread over
 * the tick (src/schedule/blind-polls.ts).
 */
async function blindPolls(
  ctx: JobContext,
  eligible: readonly WatchedIssuer[],
  snapshots: ReadonlyMap<string, Snapshot>,
  gate: GateTick,
): Promise<DuePoll[]> {
  const { plan } = ctx.settings();
  const nowMs = ctx.now().getTime();
  // Polls of earlier ticks still waiting for a worker: at least a round behind, nothing more is planned
  // (a budget far larger than the workers' pace must not pile up a queue).
  const queue = await queuedPolls(ctx);
  if (queue.ready >= eligible.length) return [];
  const byId = new Map(eligible.map((issuer) => [issuer.id, issuer]));
  const polls = selectBlindPolls({
    issuers: eligible.map((issuer) => {
      const snapshot = snapshots.get(issuer.id);
      return { id: issuer.id, polledAtMs: snapshot ? Date.parse(snapshot.polledAt) : null };
    }),
    nowMs,
    ...(await blindPace(ctx, nowMs, gate.checksLeft, queue.ready + queue.delayed)),
    tickMs: sweepEvery(plan),
    listInRotation: true,
  });
  return polls.flatMap((poll) => {
    const issuer = byId.get(poll.id);
    return issuer
      ? [{ issuer, reason: 'blind' as const, priority: undefined, delayMs: poll.atMs - nowMs }]
      : [];
  });
}

/** Polls queued and not run yet, in one read: ready for a worker, and delayed to a later turn. */
async function queuedPolls(ctx: JobContext): Promise<{ ready: number; delayed: number; total: number }> {
  const counts = await ctx.queues.poll.getJobCounts('wait', 'prioritized', 'delayed');
  const ready = (counts.wait ?? 0) + (counts.prioritized ?? 0);
  const delayed = counts.delayed ?? 0;
  return { ready, delayed, total: ready + delayed };
}

/** The day's and the minute's room for blind polls, after the reserve, `checksLeft` and the queue. */
async function blindPace(
  ctx: JobContext,
  nowMs: number,
  checksLeft: number,
  queued: number,
): Promise<BlindPace> {
  const { plan, config } = ctx.settings();
  const usage = await ctx.budget.usage();
  return {
    spendable: freeTokens({
      tokensLeft: usage.day.left - usage.reserve,
      checksLeft,
      queued,
      refreshesLater: 0,
    }),
    untilDayEndMs: nextWindowStart(nowMs, config.budget.dayWindow) - nowMs,
    perMinute: Math.max(1, config.budget.perMinute - plan.gateChecksPerMinute),
    minuteMs: config.budget.minuteWindow,
  };
}

/** While the saved list carries no version it is read at its turn in the blind rotation, not every tick. */
async function blindGateTick(ctx: JobContext, issuers: readonly Issuer[], nowMs: number): Promise<GateTick> {
  const { plan, config } = ctx.settings();
  const sweepKey = stateKeys(ctx.prefix).sweep;
  const [lastCheckAt, versionSeen, versionListed] = await ctx.redis.hmget(
    sweepKey,
    'lastCheckAt',
    'blindVersionSeen',
    'blindVersionListed',
  );
  // A blind poll's answer with a version newer than the last one that asked says versions may be back:
  // the list is read at once, once per version (positions answers carry one while the list may not).
  if (newerVersion(versionSeen, versionListed)) {
    await ctx.redis.hset(sweepKey, 'blindVersionListed', versionSeen);
    return { check: true, checksLeft: 0, profile: uniformProfile(), seenToday: 0 };
  }
  const watched = resolveWatchlist(config.watchlist, issuers).watched.length;
  const check = blindListDue({
    nowMs,
    lastCheckMs: lastCheckAt ? Date.parse(lastCheckAt) : null,
    tickMs: sweepEvery(plan),
    intervalMs: blindListIntervalMs(await blindPace(ctx, nowMs, 0, (await queuedPolls(ctx)).total), watched),
  });
  return { check, checksLeft: 0, profile: uniformProfile(), seenToday: 0 };
}

/** True when `seen` is a version later than `listed` (or `listed` is none): a version not yet asked for. */
function newerVersion(seen: string | null | undefined, listed: string | null | undefined): seen is string {
  if (!seen) return false;
  return !listed || Date.parse(seen) > Date.parse(listed);
}

/**
 * While the issuer list carries no version the gate cannot see the dataset move, so detection costs
 * polls: one warning notice while it lasts, cleared when versions return.
 */
async function reportUnversioned(ctx: JobContext, blind: boolean, watched: number): Promise<void> {
  if (!blind) {
    await ctx.notices.clear(
      'dataset-unversioned',
      'The issuer list carries its version again: the gate decides polls.',
    );
    return;
  }
  await ctx.notices.raise(
    'dataset-unversioned',
    'warning',
    'The issuer list carries no version: detection now costs polls',
    `GET /issuers answers \`last_updated: null\`, so shortwatch cannot tell when the dataset moves. It polls the ${watched} watched issuer${watched === 1 ? '' : 's'} in turn, as often as the day's budget allows, until the version returns; changes are found later than with the gate.`,
  );
}

/**
 * The polls of a gated sweep: every issuer the dataset moved past, that nears the hard bound, or is
 * new, ranked by its estimated chance of change and cut to what today's budget pays for after the
 * day's remaining gate checks and the refreshes still expected today (src/schedule/).
 */
async function scheduledPolls(
  ctx: JobContext,
  watched: readonly WatchedIssuer[],
  snapshots: ReadonlyMap<string, Snapshot>,
  lastUpdated: string | null,
  gate: GateTick,
): Promise<DuePoll[]> {
  const { plan, config } = ctx.settings();
  const nowMs = ctx.now().getTime();
  const versionMs = lastUpdated === null ? Number.NaN : Date.parse(lastUpdated);
  const usage = await ctx.budget.usage();
  const queue = await queuedPolls(ctx);
  const later = refreshesLater(gate.profile, nowMs, config.budget.dayWindow, gate.seenToday);
  const chosen = selectPolls({
    issuers: watched.map((issuer) => scheduleState(issuer.id, snapshots.get(issuer.id), nowMs)),
    versionMs: Number.isNaN(versionMs) ? null : versionMs,
    nowMs,
    boundMs: plan.maxStalenessMs,
    budget: {
      tokensLeft: usage.day.left - usage.reserve,
      checksLeft: gate.checksLeft,
      queued: queue.total,
      refreshesLater: later,
    },
    untilRefreshMs: untilRefreshMs(gate.profile, nowMs, config.budget.dayWindow, later),
    dayMs: config.budget.dayWindow,
    minuteMs: config.budget.minuteWindow,
    seenToday: gate.seenToday,
    refreshTimesKnown: refreshTimesKnown(gate.profile),
    untilDayEndMs: nextWindowStart(nowMs, config.budget.dayWindow) - nowMs,
    fullSweepMs: plan.minSweepMs,
    tickMs: sweepEvery(plan),
    fullSweeps: plan.refreshesPerDay >= 1,
  });
  const byId = new Map(watched.map((issuer) => [issuer.id, issuer]));
  return chosen.flatMap((candidate) => {
    const issuer = byId.get(candidate.id);
    return issuer ? [{ issuer, reason: candidate.reason, priority: queuePriority(candidate) }] : [];
  });
}

/** What the scheduler needs of one issuer's snapshot: its rate is read from the snapshot alone. */
export function scheduleState(
  id: string,
  snapshot: Snapshot | undefined,
  nowMs: number,
): IssuerScheduleState {
  if (!snapshot) return { id, seenVersionMs: null, polledAtMs: null, rate: 0 };
  const seen = snapshot.lastUpdated === null ? Number.NaN : Date.parse(snapshot.lastUpdated);
  return {
    id,
    seenVersionMs: Number.isNaN(seen) ? null : seen,
    polledAtMs: Date.parse(snapshot.polledAt),
    rate: snapshotRate(snapshot, nowMs),
  };
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

/** The health read at the start of the sweep with its due marks added as `markDue` wrote them (the first mark stays). */
function withDue(health: PollHealthView, dueIds: readonly string[], at: Date): PollHealthView {
  const issuers = new Map(health.issuers);
  for (const id of dueIds) {
    const h = issuers.get(id) ?? {};
    issuers.set(id, { ...h, dueSince: h.dueSince ?? at.toISOString() });
  }
  return { ...health, issuers };
}

/** Overdue issuers to notices and the gauge; health of issuers no longer watched is forgotten. */
async function reportPollHealth(
  ctx: JobContext,
  watched: readonly WatchedIssuer[],
  health: PollHealthView,
): Promise<void> {
  const { config, plan } = ctx.settings();
  const ids = new Set(watched.map((w) => w.id));
  await ctx.pollHealth.forget([...health.issuers.keys()].filter((id) => !ids.has(id)));
  const nowMs = ctx.now().getTime();
  const overdue = overdueIssuers(watched, health.issuers, nowMs, overdueAfterMs(config, plan));
  ctx.metrics.issuersOverdue.set(overdue.length);
  const active = await ctx.notices.list();
  await syncOverdueNotices(ctx, overdue, active);
  // An envelope key no answer has carried for a whole staleness period (every issuer was polled since) is gone.
  for (const seen of health.envelopes) {
    if (nowMs - Date.parse(seen.lastSeen) > config.poll.maxStaleness) {
      await ctx.notices.clear(
        envelopeNoticeKey(seen.keys),
        'Positions answers no longer carry unknown fields.',
      );
      await ctx.pollHealth.forgetEnvelope(seen.field);
    }
  }
}

async function reportWatchlistProblems(ctx: JobContext, problems: string[]): Promise<void> {
  if (problems.length > 0) {
    await ctx.notices.raise('watchlist', 'warning', 'Watchlist entries do not resolve', problems.join('\n'));
  } else {
    await ctx.notices.clear('watchlist', 'Every watchlist entry resolves again.');
  }
}
