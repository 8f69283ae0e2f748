import { DelayedError, RateLimitError, UnrecoverableError } from "bullmq";
import { stateKeys } from "../state/keys.js";
import { Lease } from "../state/lease.js";
import { failureBackoffMs, lagBackoffMs } from "../state/polling-state.js";
import { historyForPoll, historySummary, withFinals } from "./issuer-history.js";
import { confirmedCloses } from "./observe/api-closes.js";
import { emptiedVerdict, regimeOfVerdict } from "./observe/api-emptied.js";
import { commitObserved } from "./observe/commit-observed.js";
import { diffObserved } from "./observe/observation.js";
import { fetchChecked } from "./poll-answer.js";
import { failureCause, isDeterministic, nextPollTry } from "./poll-failure.js";
import { sweepEvery } from "./schedulers.js";
async function runPoll(ctx, job, token) {
  const { issuerId } = job.data;
  const run = { ctx, job, settings: ctx.settings(), token };
  const lease = new Lease(
    ctx.redis,
    stateKeys(ctx.prefix).pollLease(issuerId),
    `${job.id}|${ctx.processId}|${token ?? ""}`,
    pollLeaseMs(run.settings.config)
  );
  if (!await lease.take(`${job.id}|`)) {
    await job.moveToDelayed(ctx.now().getTime() + 2e3, token);
    throw new DelayedError();
  }
  lease.keepAlive();
  const started = performance.now();
  const timed = () => ctx.metrics.pollDuration.observe((performance.now() - started) / 1e3);
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
function pollLeaseMs(config) {
  const half = Math.round(config.poll.gateInterval / 2);
  return Math.max(2e3, Math.min(half, Math.round(config.poll.lockDuration / 3)));
}
function alreadyCurrent(snapshot, job) {
  if (!snapshot) return false;
  const { datasetVersion, reason } = job.data;
  if ((reason === "changed" || reason === "new") && datasetVersion) {
    return snapshot.lastUpdated !== null && Date.parse(snapshot.lastUpdated) >= Date.parse(datasetVersion);
  }
  const turn = job.timestamp + (reason === "blind" ? job.opts.delay ?? 0 : 0);
  return Date.parse(snapshot.polledAt) >= turn;
}
async function pollLeased(run) {
  const { ctx, job } = run;
  const issuer = { id: job.data.issuerId, name: job.data.issuerName };
  const previous = await ctx.snapshots.get(issuer.id);
  if (alreadyCurrent(previous, job)) {
    await recovered(ctx, issuer);
    return { outcome: "current" };
  }
  const answer = await confirmedAnswer(run, issuer, previous);
  if ("outcome" in answer) return answer;
  const verdict = await emptiedVerdict(ctx, run.settings, {
    issuerId: issuer.id,
    version: job.data.datasetVersion ?? "unversioned",
    market: run.settings.watched.find((w) => w.id === issuer.id)?.market,
    previous,
    diff: answer.diff
  });
  if (verdict.kind === "wait") {
    await job.moveToDelayed(verdict.untilMs, run.token);
    throw new DelayedError();
  }
  const { committed, events } = await commitAnswer(run, previous, answer, verdict);
  await afterCommit(run, issuer, answer.response);
  if (events > 0) ctx.logger.info({ issuerId: issuer.id, events, committed }, "poll found changes");
  const outcome = answer.diff.baseline ? "baseline" : events > 0 ? "changed" : "unchanged";
  return { outcome, events: committed ? events : 0, committed };
}
async function confirmedAnswer(run, issuer, previous) {
  const { ctx, job, settings } = run;
  const read = async () => {
    const response = await fetchChecked(ctx, settings, issuer, previous);
    return "outcome" in response ? response : { response, diff: diffOf(run, previous, response) };
  };
  const first = await read();
  if ("outcome" in first) return first;
  const at = { issuerId: issuer.id, version: job.data.datasetVersion ?? "unversioned", previous };
  return confirmedCloses(ctx, settings, at, first, read);
}
async function commitAnswer(run, previous, { response, diff }, verdict) {
  const { ctx, job, settings } = run;
  const history = await historyForPoll(ctx, settings, job.data.issuerId, diff.events, previous);
  const summary = historySummary(diff.next, history, ctx.now());
  const completed = { ...diff, events: withFinals(diff.events, history) };
  const at = { key: job.data.issuerId, name: job.data.issuerName, version: job.data.datasetVersion };
  const regime = verdict.kind === "regime" ? await regimeOfVerdict(ctx, at, { previous, diff: completed }, verdict) : void 0;
  const { committed, told } = await commitObserved(ctx, settings, {
    previous,
    diff: regime === void 0 ? completed : regime.drop.silent.diff,
    snapshot: { upstreamUpdated: response.last_updated, ...summary ? { history: summary } : {} },
    label: job.data.label,
    ...regime === void 0 ? {} : { regime }
  });
  return { committed, events: told + (regime === void 0 ? 0 : 1) };
}
async function afterCommit(run, issuer, response) {
  const { ctx, job } = run;
  if (job.data.reason === "blind" && response.last_updated !== null)
    await ctx.redis.hset(stateKeys(ctx.prefix).sweep, "blindVersionSeen", response.last_updated);
  const listVersion = job.data.datasetVersion ?? null;
  if (listVersion !== null && isOlder(response.last_updated, listVersion) && response.last_updated !== null)
    await lagged(run, issuer, response.last_updated, listVersion);
  else await recovered(ctx, issuer);
}
function diffOf({ ctx, job, settings }, previous, response) {
  const { config } = settings;
  const observation = {
    key: job.data.issuerId,
    name: response.issuer.name || job.data.issuerName,
    rows: response.data,
    version: recordedVersion(job.data.datasetVersion ?? null, response.last_updated),
    at: ctx.now()
  };
  return diffObserved(observation, previous, config.poll);
}
function recordedVersion(listVersion, answerVersion) {
  if (listVersion === null) return answerVersion;
  return isOlder(answerVersion, listVersion) ? answerVersion : listVersion;
}
function isOlder(answer, list) {
  return answer !== null && Date.parse(answer) < Date.parse(list);
}
async function recovered(ctx, issuer) {
  const { wasFailing, wasNotFound, wasLagging } = await ctx.pollHealth.succeeded(issuer.id);
  await ctx.notices.clear("budget-exhausted", "Polling has budget again.");
  if (wasNotFound)
    await ctx.notices.clear(`issuer-missing-${issuer.id}`, `${issuer.name} (${issuer.id}) answers again.`);
  if (wasFailing || wasLagging)
    await ctx.notices.clear(`poll-overdue-${issuer.id}`, `${issuer.name} (${issuer.id}) is polled again.`);
}
async function lagged({ ctx, settings }, issuer, answered, expected) {
  const { plan } = settings;
  const lag = await ctx.pollHealth.lagging({
    issuerId: issuer.id,
    answered,
    expected,
    at: ctx.now(),
    backoffMs: (count) => lagBackoffMs(count, sweepEvery(plan), plan.maxStalenessMs)
  });
  ctx.logger.warn(
    {
      issuerId: issuer.id,
      answered,
      expected,
      lagging: lag.count,
      nextTry: new Date(lag.retryAt).toISOString()
    },
    "positions answer older than the issuer list: polled again after a wait"
  );
}
async function failed({ ctx, job, settings }, error) {
  const cause = failureCause(error);
  ctx.metrics.polls.inc({ outcome: "failed" });
  ctx.metrics.pollFailures.inc({ cause });
  const message = error instanceof Error ? error.message : String(error);
  const { plan } = settings;
  let failing;
  try {
    failing = await ctx.pollHealth.failed({
      issuerId: job.data.issuerId,
      cause,
      message,
      at: ctx.now(),
      version: job.data.datasetVersion ?? null,
      backoffMs: (count) => failureBackoffMs(count, sweepEvery(plan), plan.maxStalenessMs)
    });
  } catch {
  }
  const blip = !isDeterministic(cause) && (failing?.count ?? 1) <= job.attemptsMade + 1;
  const nextTry = nextPollTry({
    blip,
    attemptsMade: job.attemptsMade,
    attempts: job.opts.attempts ?? 1,
    jobBackoffMs: backoffDelayOf(job),
    healthRetryAt: failing?.retryAt,
    nowMs: ctx.now().getTime()
  });
  ctx.logger.warn(
    {
      issuerId: job.data.issuerId,
      cause,
      failures: failing?.count,
      since: failing?.since,
      nextTry: nextTry === void 0 ? void 0 : new Date(nextTry).toISOString(),
      err: error
    },
    "poll failed"
  );
  return blip ? error : new UnrecoverableError(`${cause}: ${message}`);
}
function backoffDelayOf(job) {
  const backoff = job.opts.backoff;
  return typeof backoff === "number" ? backoff : backoff?.delay ?? 0;
}
export {
  pollLeaseMs,
  recordedVersion,
  runPoll
};
