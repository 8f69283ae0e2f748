import { setTimeout as sleep } from 'node:timers/promises';
import { stateKeys } from '../../src/jobs/keys.js';
import { pollJobId } from '../../src/jobs/queues.js';
import { type FaultContext, type Hazard, runFault } from './faults.js';
import { describeVerdict, expectedUnits, judge, type StepRecord, type Verdict } from './oracle.js';
import { type ChaosProfile, describePlan, type PlannedFault, planFaults } from './plan.js';
import { digestReceived, emailReceived, slackReceived, webhookReceived } from './received.js';
import { Story } from './story.js';
import { ALERTS_TO, buildWorld, CHANNELS, type ChaosWorld, DIGEST_TO } from './world.js';

/** One chaos run: a seed, a profile, and how long to wait for the daemon before calling it stuck. */
export interface ChaosOptions {
  seed: number;
  profile: ChaosProfile;
  /** How long one step may take to be fully observed (every issuer's snapshot at the new dataset). */
  stepTimeoutMs: number;
  /** How long the deliveries may take to settle after the last step. */
  drainTimeoutMs: number;
  /** How to replay this run, printed first. */
  replay: string;
  /** Prints each story line as it happens (the long run). */
  echo?: (line: string) => void;
}

/** The outcome of a run, with the story that explains it. */
export interface ChaosReport {
  seed: number;
  ok: boolean;
  durationMs: number;
  verdicts: Verdict[];
  problems: string[];
  story: string;
}

/** Runs the scenario: baseline, then steps each fully observed while faults hit, then the channel oracle. */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const started = Date.now();
  const story = new Story(started, options.echo);
  const { profile, seed } = options;
  const plan = planFaults(seed, profile);
  story.add(
    'plan',
    `seed ${seed}: ${profile.issuers} issuers, ${profile.steps} steps, daemon + ${profile.workers} workers (replay: ${options.replay})`,
  );
  for (const line of describePlan(plan)) story.add('plan', line);
  const problems: string[] = [];
  const hazards: Hazard[] = [];
  const world = await buildWorld({ seed, issuers: profile.issuers, workers: profile.workers });
  let verdicts: Verdict[] = [];
  try {
    await world.fleet.startAll();
    story.add(
      'saw',
      `fleet up: ${world.fleet.members.map((m) => `${m.name} pid ${world.fleet.pid(m)}`).join(', ')}`,
    );
    await baseline(world, story, problems, options.stepTimeoutMs);
    const steps: StepRecord[] = [];
    for (const [index, faults] of plan.entries()) {
      if (problems.length > 0) break;
      steps.push(await runStep(world, { step: index + 1, faults, story, hazards, problems }, options));
    }
    if (problems.length === 0) await settle(world, story, problems, options.drainTimeoutMs);
    verdicts = judgeChannels(world, steps, hazards);
    await reportLeftovers(world, story);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    problems.push(message);
    story.add('fail', message);
  } finally {
    await world.close().catch(() => undefined);
  }
  for (const verdict of verdicts)
    for (const line of describeVerdict(verdict)) story.add(verdict.ok ? 'check' : 'fail', line);
  const ok = problems.length === 0 && verdicts.length > 0 && verdicts.every((v) => v.ok);
  story.add(
    ok ? 'check' : 'fail',
    `${ok ? 'PASS' : 'FAIL'} seed ${seed} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { seed, ok, durationMs: Date.now() - started, verdicts, problems, story: story.toString() };
}

/** Issuers whose snapshot has not yet seen the dataset as of `target` (epoch ms of `last_updated`). */
async function lagging(world: ChaosWorld, target: number): Promise<string[]> {
  const snapshots = await world.snapshots.getMany(world.issuerIds);
  return world.issuerIds.filter((id) => {
    const seen = snapshots.get(id)?.lastUpdated;
    return !(seen && Date.parse(seen) >= target);
  });
}

async function waitCaughtUp(world: ChaosWorld, target: number, timeoutMs: number): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const behind = await lagging(world, target);
    if (behind.length === 0 || Date.now() > deadline) return behind;
    await sleep(200);
  }
}

/** Why some issuers are behind: their pending poll job for the current dataset, or their failed ones. */
async function explainLag(world: ChaosWorld, behind: readonly string[], target: number): Promise<string> {
  const access = await world.access.get();
  const blocked = await world.redis.hgetall(`${world.prefix}:budget:blocked`).catch(() => ({}));
  const failed = await world.queues.poll.getFailed(0, 200);
  const parts = await Promise.all(
    behind.slice(0, 6).map(async (id) => {
      const pendingId = await world.queues.poll.getDeduplicationJobId(pollJobId(id, `v${target}`));
      const job = pendingId ? await world.queues.poll.getJob(pendingId) : undefined;
      const fails = failed.filter((j) => j.data?.issuerId === id).map((j) => j.failedReason.slice(0, 80));
      const pending = job
        ? `poll job ${job.id} ${await job.getState()} after ${job.attemptsMade} attempt(s)`
        : 'no pending poll job for this dataset';
      return `${id}: ${pending}${fails.length > 0 ? `; failed polls: ${fails.join(' | ')}` : ''}`;
    }),
  );
  return `${parts.join('; ')}; access ${access.state}; budget block ${JSON.stringify(blocked)}`;
}

async function baseline(
  world: ChaosWorld,
  story: Story,
  problems: string[],
  timeoutMs: number,
): Promise<void> {
  const target = Date.parse(world.stack.sandbox.scenario.lastUpdated() ?? '');
  const behind = await waitCaughtUp(world, target, timeoutMs);
  if (behind.length > 0) {
    problems.push(`baseline: ${behind.length} issuers never polled`);
    story.add(
      'fail',
      `baseline: ${behind.length} issuers never polled: ${await explainLag(world, behind, target)}`,
    );
    return;
  }
  await sleep(1_000);
  const sent = sentCounts(world);
  story.add(
    'saw',
    `baseline of ${world.issuerIds.length} issuers taken; messages sent: ${describeCounts(sent)}`,
  );
  if (Object.values(sent).some((n) => n > 0)) {
    problems.push('the baseline sent messages');
    story.add('fail', 'the first observation of an issuer must be silent');
  }
}

interface StepContext {
  step: number;
  faults: PlannedFault[];
  story: Story;
  hazards: Hazard[];
  problems: string[];
}

/** One step: change the data, inject the step's faults, wait until every issuer saw the new dataset. */
async function runStep(world: ChaosWorld, step: StepContext, options: ChaosOptions): Promise<StepRecord> {
  const { sandbox } = world.stack;
  const { story } = step;
  const firstRequest = sandbox.stats.requests.length;
  const startedAt = Date.now();
  const changes = sandbox.scenario.step();
  const target = Date.parse(sandbox.scenario.lastUpdated() ?? '');
  const issuers = new Set(changes.map((c) => c.issuerId));
  const kinds = countBy(changes.map((c) => c.kind));
  story.add(
    'step',
    `step ${step.step} (${sandbox.scenario.today()}): ${changes.length} change(s) in ${issuers.size} issuer(s): ${describeCounts(kinds)}`,
  );
  const ctx: FaultContext = {
    world,
    story,
    hazards: step.hazards,
    problems: step.problems,
    changedIssuers: [...issuers],
    killMoments: options.profile.killMoments,
  };
  const injecting = injectAll(step.faults, ctx, startedAt);
  let behind = await waitCaughtUp(world, target, options.stepTimeoutMs);
  await injecting;
  // A fault late in the window (a kill, a 401 episode) may have come after the first catch-up.
  if (behind.length === 0) behind = await waitCaughtUp(world, target, options.stepTimeoutMs);
  else
    behind = await waitCaughtUp(world, target, Math.max(0, startedAt + options.stepTimeoutMs - Date.now()));
  const upstream = countBy(
    sandbox.stats.requests.slice(firstRequest).map((r) => `${r.operation} ${r.status}`),
  );
  if (behind.length > 0) {
    const why = await explainLag(world, behind, target);
    step.problems.push(`step ${step.step}: ${behind.length} issuer(s) never saw the new data`);
    story.add(
      'fail',
      `step ${step.step}: ${behind.length} issuer(s) never saw the new data within ${options.stepTimeoutMs} ms: ${why}`,
    );
  } else {
    story.add(
      'saw',
      `step ${step.step} observed by every issuer in ${((Date.now() - startedAt) / 1000).toFixed(1)} s; upstream answered ${describeCounts(upstream)}`,
    );
  }
  const unused = sandbox.faults.pending();
  if (unused > 0) {
    sandbox.faults.clear();
    story.add('saw', `${unused} upstream fault(s) not reached by any request; cleared`);
  }
  story.add('saw', `received so far: ${describeCounts(sentCounts(world))}`);
  return { step: step.step, changes };
}

/** Each fault starts at its own offset; slow ones (a restart, a 401 episode) do not hold up the next. */
async function injectAll(
  faults: readonly PlannedFault[],
  ctx: FaultContext,
  startedAt: number,
): Promise<void> {
  await Promise.all(
    faults.map(async (fault) => {
      const wait = startedAt + fault.atMs - Date.now();
      if (wait > 0) await sleep(wait);
      try {
        await runFault(fault, ctx);
      } catch (error) {
        const message = `fault ${fault.name} failed to run: ${error instanceof Error ? error.message : String(error)}`;
        ctx.problems.push(message);
        ctx.story.add('fail', message);
      }
    }),
  );
}

/** After the last step: every delivery queue empty, the digest flushed, then a quiet spell for late repeats. */
async function settle(world: ChaosWorld, story: Story, problems: string[], timeoutMs: number): Promise<void> {
  const keys = stateKeys(world.prefix);
  const startedAt = Date.now();
  const busy = async (): Promise<string[]> => {
    const counts = await Promise.all(
      CHANNELS.map(async (c) => {
        const n = await world.queues.deliver(c).getJobCounts('waiting', 'active', 'delayed', 'prioritized');
        const total = Object.values(n).reduce((a, b) => a + b, 0);
        return total > 0 ? [`${c} ${total}`] : [];
      }),
    );
    const staged = await world.redis.hlen(keys.digestStaged('morning'));
    const batch = await world.redis.exists(keys.digestBatch('morning'));
    return [...counts.flat(), ...(staged + batch > 0 ? [`digest ${staged} staged`] : [])];
  };
  let pending = await busy();
  while (pending.length > 0 && Date.now() - startedAt < timeoutMs) {
    await sleep(250);
    pending = await busy();
  }
  if (pending.length > 0) {
    problems.push(`deliveries did not settle: ${pending.join(', ')}`);
    story.add('fail', `deliveries still pending after ${timeoutMs} ms: ${pending.join(', ')}`);
    return;
  }
  await sleep(3_000);
  story.add(
    'saw',
    `deliveries settled in ${((Date.now() - startedAt) / 1000).toFixed(1)} s (+3 s quiet); received ${describeCounts(sentCounts(world))}`,
  );
}

/** Dead letters and failed polls, for the story. */
async function reportLeftovers(world: ChaosWorld, story: Story): Promise<void> {
  for (const queue of [world.queues.poll, ...CHANNELS.map((c) => world.queues.deliver(c))]) {
    const failed = await queue.getFailed(0, 5);
    const count = await queue.getFailedCount();
    if (count === 0) continue;
    const reasons = failed.map((j) => `${j.id}: ${(j.failedReason ?? '').slice(0, 100)}`).join('; ');
    story.add('saw', `${queue.name}: ${count} failed job(s): ${reasons}`);
  }
  const repeats = world.receiver.repeats();
  if (repeats.length > 0) {
    story.add(
      'saw',
      `webhook receiver dropped ${repeats.length} repeated delivery id(s) (at-least-once resends): ${repeats.map((r) => r.deliveryId).join(', ')}`,
    );
  }
}

function judgeChannels(
  world: ChaosWorld,
  steps: readonly StepRecord[],
  hazards: readonly Hazard[],
): Verdict[] {
  const { scenario } = world.stack.sandbox;
  const expected = expectedUnits(steps, (id) => scenario.issuer(id)?.name ?? id);
  const { slack, smtp } = world.stack;
  return [
    judge({
      channel: 'hook (webhook)',
      unitName: 'event',
      expected: expected.events,
      received: webhookReceived(world.receiver),
      hazards,
      exactlyOnce: true,
    }),
    judge({
      channel: 'desk (Slack)',
      unitName: 'message',
      expected: expected.messages,
      received: slackReceived(slack.posts),
      hazards,
      exactlyOnce: false,
    }),
    judge({
      channel: 'alerts (email)',
      unitName: 'message',
      expected: expected.messages,
      received: emailReceived(smtp.mails, ALERTS_TO),
      hazards,
      exactlyOnce: false,
    }),
    judge({
      channel: 'morning (digest)',
      unitName: 'digest line',
      expected: expected.digest,
      received: digestReceived(smtp.mails, DIGEST_TO),
      hazards,
      exactlyOnce: false,
    }),
  ];
}

function sentCounts(world: ChaosWorld): Record<string, number> {
  const mails = world.stack.smtp.mails;
  const to = (who: string) => mails.filter((m) => JSON.stringify(m.parsed.to ?? '').includes(who)).length;
  return {
    hook: world.receiver.accepted().length,
    slack: world.stack.slack.delivered().length,
    email: to(ALERTS_TO),
    digest: to(DIGEST_TO),
  };
}

function countBy(items: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item] = (counts[item] ?? 0) + 1;
  return counts;
}

function describeCounts(counts: Record<string, number>): string {
  return (
    Object.entries(counts)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') || 'none'
  );
}
