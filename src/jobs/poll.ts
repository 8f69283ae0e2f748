import { DelayedError, type Job, RateLimitError, UnrecoverableError } from 'bullmq';
import type { Config } from '../config/schema.js';
import type { DiffResult, Snapshot } from '../positions/index.js';
import { stateKeys } from '../state/keys.js';
import { Lease } from '../state/lease.js';
import { failureBackoffMs, lagBackoffMs } from '../state/polling-state.js';
import type { PositionsResponse } from '../upstream/index.js';
import type { JobContext, Settings } from './context.js';
import { historyForPoll, historySummary, withFinals } from './issuer-history.js';
import { confirmedCloses } from './observe/api-closes.js';
import { type EmptiedVerdict, emptiedVerdict, regimeOfVerdict } from './observe/api-emptied.js';
import { commitObserved } from './observe/commit-observed.js';
import { diffObserved } from './observe/observation.js';
import { fetchChecked, type NoAnswer } from './poll-answer.js';
import { failureCause, isDeterministic, nextPollTry } from './poll-failure.js';
import { sweepEvery } from './schedulers.js';
import type { PollJobData } from './sweep.js';

/** One poll job and the settings it runs with, read once at its start. */
interface PollRun {
  ctx: JobContext;
  job: Job<PollJobData>;
  settings: Settings;
  token: string | undefined;
}

/** An answer to diff: the positions and their diff against the snapshot (confirmed when it had to be). */
interface Answer {
  response: PositionsResponse;
  diff: DiffResult;
}

/** What one poll did. */
export type PollResult =
  | { outcome: 'changed' | 'unchanged' | 'baseline'; events: number; committed: boolean }
  | { outcome: 'missing' | 'revoked' | 'busy' | 'current' };

/**
 * Polls one issuer: lease → token → GET positions (active) → diff against the snapshot → one atomic
 * commit of the snapshot with the events, their log entries and every channel's outbox items. A crash
 * before the commit leaves nothing behind; a replay after it finds the snapshot advanced.
 */
export async function runPoll(
  ctx: JobContext,
  job: Job<PollJobData>,
  token: string | undefined,
): Promise<PollResult> {
  const { issuerId } = job.data;
  // The settings are read once: a reload while the poll runs changes nothing in it.
  const run: PollRun = { ctx, job, settings: ctx.settings(), token };
  // A retry of this job finds its own dead run's lease (same job id) and takes it over at once; any
  // other holder that died stops renewing, and its lease lapses within one lease period.
  const lease = new Lease(
    ctx.redis,
    stateKeys(ctx.prefix).pollLease(issuerId),
    `${job.id}|${ctx.processId}|${token ?? ''}`,
    pollLeaseMs(run.settings.config),
  );
  if (!(await lease.take(`${job.id}|`))) {
    // Another worker polls this issuer right now: come back after it rather than diff against a moving snapshot.
    await job.moveToDelayed(ctx.now().getTime() + 2_000, token);
    throw new DelayedError();
  }
  lease.keepAlive();
  const started = performance.now();
  // Timed with its outcome only: a poll put off (its issuer's emptied list waiting for the confirming
  // read, a rate limit) is no poll yet, so `shortwatch_poll_duration_seconds_count` equals `polls_total`.
  const timed = () => ctx.metrics.pollDuration.observe((performance.now() - started) / 1000);
  try {
    const result = await pollLeased(run);
    ctx.metrics.polls.inc({ outcome: result.outcome });
    timed();
    return result;
  } catch (error) {
    if (error instanceof DelayedError || error instanceof RateLimitError) throw error;
    const outcome = await failed(run, error);
    timed();
    throw outcome;
  } finally {
    await lease.release();
  }
}

/**
 * The poll lease, renewed every third of itself while the poll runs: half a gate interval, so that a lease
 * left by a dead process lapses before the next sweep plans its issuer again, at least 2 s (renewals must
 * not race the clock) and at most a third of `poll.lockDuration`.
 */
export function pollLeaseMs(config: Config): number {
  const half = Math.round(config.poll.gateInterval / 2);
  return Math.max(2_000, Math.min(half, Math.round(config.poll.lockDuration / 3)));
}

/** True when the stored snapshot already reflects what this job was planned for: nothing to spend. */
function alreadyCurrent(snapshot: Snapshot | null, job: Job<PollJobData>): boolean {
  if (!snapshot) return false;
  const { datasetVersion, reason } = job.data;
  if ((reason === 'changed' || reason === 'new') && datasetVersion) {
    return snapshot.lastUpdated !== null && Date.parse(snapshot.lastUpdated) >= Date.parse(datasetVersion);
  }
  // A stale or interval poll is current once any poll committed after the job was planned; a blind
  // poll, once one committed after its turn (it was queued with a delay to that turn).
  const turn = job.timestamp + (reason === 'blind' ? (job.opts.delay ?? 0) : 0);
  return Date.parse(snapshot.polledAt) >= turn;
}

async function pollLeased(run: PollRun): Promise<PollResult> {
  const { ctx, job } = run;
  const issuer = { id: job.data.issuerId, name: job.data.issuerName };
  const previous = await ctx.snapshots.get(issuer.id);
  // A duplicate of a poll that already committed (a replay, an overlapping sweep) costs no token.
  if (alreadyCurrent(previous, job)) {
    await recovered(ctx, issuer);
    return { outcome: 'current' };
  }
  const answer = await confirmedAnswer(run, issuer, previous);
  if ('outcome' in answer) return answer;
  const verdict = await emptiedVerdict(ctx, run.settings, {
    issuerId: issuer.id,
    version: job.data.datasetVersion ?? 'unversioned',
    market: run.settings.watched.find((w) => w.id === issuer.id)?.market,
    previous,
    diff: answer.diff,
  });
  if (verdict.kind === 'wait') {
    // Its whole list emptied: the other polls of this version record theirs before a confirming read.
    await job.moveToDelayed(verdict.untilMs, run.token);
    throw new DelayedError();
  }
  const { committed, events } = await commitAnswer(run, previous, answer, verdict);
  await afterCommit(run, issuer, answer.response);
  if (events > 0) ctx.logger.info({ issuerId: issuer.id, events, committed }, 'poll found changes');
  const outcome = answer.diff.baseline ? 'baseline' : events > 0 ? 'changed' : 'unchanged';
  return { outcome, events: committed ? events : 0, committed };
}

/**
 * The positions and their diff, confirmed by a second answer when the tail's guard asks for one
 * (observe/api-closes.ts): the one kept is the answer committed.
 */
async function confirmedAnswer(
  run: PollRun,
  issuer: { id: string; name: string },
  previous: Snapshot | null,
): Promise<Answer | NoAnswer> {
  const { ctx, job, settings } = run;
  const read = async (): Promise<Answer | NoAnswer> => {
    const response = await fetchChecked(ctx, settings, issuer, previous);
    return 'outcome' in response ? response : { response, diff: diffOf(run, previous, response) };
  };
  const first = await read();
  if ('outcome' in first) return first;
  const at = { issuerId: issuer.id, version: job.data.datasetVersion ?? 'unversioned', previous };
  return confirmedCloses(ctx, settings, at, first, read);
}

/**
 * Hands the answer to the observation tail (stories, routing, the told record, one commit), with the
 * closes' final values from the history when the poll fetched it.
 */
async function commitAnswer(
  run: PollRun,
  previous: Snapshot | null,
  { response, diff }: Answer,
  verdict: EmptiedVerdict,
): Promise<{ committed: boolean; events: number }> {
  const { ctx, job, settings } = run;
  const history = await historyForPoll(ctx, settings, job.data.issuerId, diff.events, previous);
  const summary = historySummary(diff.next, history, ctx.now());
  const completed = { ...diff, events: withFinals(diff.events, history) };
  const at = { key: job.data.issuerId, name: job.data.issuerName, version: job.data.datasetVersion };
  const regime =
    verdict.kind === 'regime'
      ? await regimeOfVerdict(ctx, at, { previous, diff: completed }, verdict)
      : undefined;
  // The story is told after the close's final value is known: it decides what "fell below" reads.
  const { committed, told } = await commitObserved(ctx, settings, {
    previous,
    diff: regime === undefined ? completed : regime.drop.silent.diff,
    snapshot: { upstreamUpdated: response.last_updated, ...(summary ? { history: summary } : {}) },
    label: job.data.label,
    ...(regime === undefined ? {} : { regime }),
  });
  return { committed, events: told + (regime === undefined ? 0 : 1) };
}

/** After a commit: a blind poll's answer with a version asks for the list; a lagging answer waits, else recovered. */
async function afterCommit(
  run: PollRun,
  issuer: { id: string; name: string },
  response: PositionsResponse,
): Promise<void> {
  const { ctx, job } = run;
  // While the list has no version it is read only at its turn: an answer with one asks for it once per version.
  if (job.data.reason === 'blind' && response.last_updated !== null)
    await ctx.redis.hset(stateKeys(ctx.prefix).sweep, 'blindVersionSeen', response.last_updated);
  const listVersion = job.data.datasetVersion ?? null;
  if (listVersion !== null && isOlder(response.last_updated, listVersion) && response.last_updated !== null)
    await lagged(run, issuer, response.last_updated, listVersion);
  else await recovered(ctx, issuer);
}

function diffOf(
  { ctx, job, settings }: PollRun,
  previous: Snapshot | null,
  response: PositionsResponse,
): DiffResult {
  const { config } = settings;
  const observation = {
    key: job.data.issuerId,
    name: response.issuer.name || job.data.issuerName,
    rows: response.data,
    version: recordedVersion(job.data.datasetVersion ?? null, response.last_updated),
    at: ctx.now(),
  };
  return diffObserved(observation, previous, config.poll);
}

/**
 * The dataset version a snapshot records: the list's, unless the positions answer says it is older (a
 * replica behind), when the answer's own is recorded so the gate plans the issuer again at its next
 * check. An answer without a version cannot be told lagging: the list's is recorded, or every gate
 * check would poll the issuer again.
 */
export function recordedVersion(listVersion: string | null, answerVersion: string | null): string | null {
  if (listVersion === null) return answerVersion;
  return isOlder(answerVersion, listVersion) ? answerVersion : listVersion;
}

/** True when `answer` names an instant before `list`'s. */
function isOlder(answer: string | null, list: string): boolean {
  return answer !== null && Date.parse(answer) < Date.parse(list);
}

/** A poll succeeded: clear the issuer's failure streak, 404 backoff, lag and the notices they raised. */
async function recovered(ctx: JobContext, issuer: { id: string; name: string }): Promise<void> {
  const { wasFailing, wasNotFound, wasLagging } = await ctx.pollHealth.succeeded(issuer.id);
  await ctx.notices.clear('budget-exhausted', 'Polling has budget again.');
  if (wasNotFound)
    await ctx.notices.clear(`issuer-missing-${issuer.id}`, `${issuer.name} (${issuer.id}) answers again.`);
  if (wasFailing || wasLagging)
    await ctx.notices.clear(`poll-overdue-${issuer.id}`, `${issuer.name} (${issuer.id}) is polled again.`);
}

/**
 * The answer was committed (its changes are real) but carries an older dataset than the list: the
 * issuer stays due, is planned again at the next gate check, and is told as overdue if it lasts.
 */
async function lagged(
  { ctx, settings }: PollRun,
  issuer: { id: string; name: string },
  answered: string,
  expected: string,
): Promise<void> {
  const { plan } = settings;
  const lag = await ctx.pollHealth.lagging({
    issuerId: issuer.id,
    answered,
    expected,
    at: ctx.now(),
    backoffMs: (count) => lagBackoffMs(count, sweepEvery(plan), plan.maxStalenessMs),
  });
  ctx.logger.warn(
    {
      issuerId: issuer.id,
      answered,
      expected,
      lagging: lag.count,
      nextTry: new Date(lag.retryAt).toISOString(),
    },
    'positions answer older than the issuer list: polled again after a wait',
  );
}

/**
 * A poll that failed: counted by cause, recorded in the issuer's health (which the sweep turns into a
 * notice when it lasts), logged. A cause a retry cannot fix ends the job now (the next sweep plans the
 * issuer again) rather than spending a token on each of its attempts.
 */
async function failed({ ctx, job, settings }: PollRun, error: unknown): Promise<unknown> {
  const cause = failureCause(error);
  ctx.metrics.polls.inc({ outcome: 'failed' });
  ctx.metrics.pollFailures.inc({ cause });
  const message = error instanceof Error ? error.message : String(error);
  const { plan } = settings;
  let failing: Awaited<ReturnType<typeof ctx.pollHealth.failed>> | undefined;
  try {
    failing = await ctx.pollHealth.failed({
      issuerId: job.data.issuerId,
      cause,
      message,
      at: ctx.now(),
      version: job.data.datasetVersion ?? null,
      backoffMs: (count) => failureBackoffMs(count, sweepEvery(plan), plan.maxStalenessMs),
    });
  } catch {
    // Redis itself failing is logged by the connection's error listener; the job's own error matters here.
  }
  // Retried within the sweep only while the failure may be a blip: a cause a retry cannot fix, or an
  // issuer already failing before this job, waits out its backoff instead of spending a token per attempt.
  const blip = !isDeterministic(cause) && (failing?.count ?? 1) <= job.attemptsMade + 1;
  const nextTry = nextPollTry({
    blip,
    attemptsMade: job.attemptsMade,
    attempts: job.opts.attempts ?? 1,
    jobBackoffMs: backoffDelayOf(job),
    healthRetryAt: failing?.retryAt,
    nowMs: ctx.now().getTime(),
  });
  // One line: issuer, cause, streak and the next try (the stack at debug only, by the logger).
  ctx.logger.warn(
    {
      issuerId: job.data.issuerId,
      cause,
      failures: failing?.count,
      since: failing?.since,
      nextTry: nextTry === undefined ? undefined : new Date(nextTry).toISOString(),
      err: error,
    },
    'poll failed',
  );
  return blip ? error : new UnrecoverableError(`${cause}: ${message}`);
}

/** The first delay of a job's backoff (a number, or `{ delay }`); 0 without one. */
function backoffDelayOf(job: Job): number {
  const backoff = job.opts.backoff;
  return typeof backoff === 'number' ? backoff : (backoff?.delay ?? 0);
}
