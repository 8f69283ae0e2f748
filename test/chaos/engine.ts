import { setTimeout as sleep } from 'node:timers/promises';
import type { ScenarioChange } from '../../src/sandbox/index.js';
import { Random } from '../../src/sandbox/prng.js';
import { type FaultContext, type Hazard, runFault } from './faults.js';
import {
  countBy,
  describeCounts,
  explainLag,
  reportLeftovers,
  sentCounts,
  settle,
  waitCaughtUp,
} from './observe.js';
import { describeVerdict, repeatsAfterOutages, resends, type StepRecord, type Verdict } from './oracle.js';
import {
  type ChaosProfile,
  describePlan,
  type PlannedFault,
  planFaults,
  planScenarios,
  type StepScenario,
} from './plan.js';
import { closeSeen, followUp, type RowMissing, serveWithoutRow } from './row-missing.js';
import { Story } from './story.js';
import { blindPhase, noticeCleared } from './unversioned.js';
import { diagnoseDuplicates, judgeChannels } from './verdicts.js';
import { buildWorld, type ChaosWorld } from './world.js';

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
  /** Keeps each process's log (info level) in this directory. */
  logDir?: string;
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
  const scenarios = planScenarios(seed, profile.steps);
  story.add(
    'plan',
    `seed ${seed}: ${profile.issuers} issuers, ${profile.steps} steps, daemon + ${profile.workers} workers (replay: ${options.replay})`,
  );
  for (const line of describePlan(plan, scenarios)) story.add('plan', line);
  const problems: string[] = [];
  const hazards: Hazard[] = [];
  const outages: Hazard[] = [];
  const world = await buildWorld({
    seed,
    issuers: profile.issuers,
    workers: profile.workers,
    logDir: options.logDir,
  });
  let verdicts: Verdict[] = [];
  try {
    await world.fleet.startAll();
    story.add(
      'saw',
      `fleet up: ${world.fleet.members.map((m) => `${m.name} pid ${world.fleet.pid(m)}`).join(', ')}`,
    );
    await baseline(world, story, problems, options.stepTimeoutMs);
    const steps: StepRecord[] = [];
    const episode: Episode = { seed, rowMissing: undefined };
    for (const [index, faults] of plan.entries()) {
      if (problems.length > 0) break;
      const scenario = scenarios[index];
      const step = { step: index + 1, faults, scenario, episode, story, hazards, outages, problems };
      steps.push(await runStep(world, step, options));
    }
    if (problems.length === 0) await settle(world, story, problems, options.drainTimeoutMs);
    verdicts = judgeChannels(world, steps, hazards);
    for (const line of repeatsAfterOutages(verdicts, outages, hazards)) {
      problems.push(line);
      story.add('fail', line);
    }
    await reportLeftovers(world, story, problems);
    for (const verdict of verdicts) {
      for (const line of await diagnoseDuplicates(world, verdict, started)) story.add('saw', line);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    problems.push(message);
    story.add('fail', message);
  } finally {
    await world.close().catch(() => undefined);
  }
  for (const verdict of verdicts)
    for (const line of describeVerdict(verdict, started)) story.add(verdict.ok ? 'check' : 'fail', line);
  const ok = problems.length === 0 && verdicts.length > 0 && verdicts.every((v) => v.ok);
  story.add(
    ok ? 'check' : 'fail',
    `${ok ? 'PASS' : 'FAIL'} seed ${seed} in ${((Date.now() - started) / 1000).toFixed(1)} s; ${describeResends(verdicts)}`,
  );
  return { seed, ok, durationMs: Date.now() - started, verdicts, problems, story: story.toString() };
}

/** How many messages each channel received again (acceptably), for the last line of the story. */
function describeResends(verdicts: readonly Verdict[]): string {
  const parts = verdicts.map((v) => {
    const { messages, units } = resends(v);
    return `${v.name} ${messages} (${units} ${v.unitName}s)`;
  });
  return `messages resent: ${parts.join(', ') || 'none judged'}`;
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

/** The missing-row episode, across the three steps it spans. */
interface Episode {
  seed: number;
  rowMissing: RowMissing | undefined;
}

interface StepContext {
  step: number;
  faults: PlannedFault[];
  scenario: StepScenario | undefined;
  episode: Episode;
  story: Story;
  hazards: Hazard[];
  outages: Hazard[];
  problems: string[];
}

/**
 * The step's data change, as the daemon must see it: the sandbox's step, the missing-row episode's
 * follow-up (the row back, then really gone), and this step's own scenario set up before any poll.
 */
function changeData(world: ChaosWorld, step: StepContext): ScenarioChange[] {
  const { scenario } = world.stack.sandbox;
  const { episode, story } = step;
  let changes = scenario.step();
  const open = episode.rowMissing;
  if (open && open.phase !== 'done') changes = followUp(world, open, changes, story);
  if (step.scenario === 'row-missing') {
    episode.rowMissing = serveWithoutRow(world, changes, new Random(episode.seed ^ step.step), story);
  }
  return changes;
}

/** One step: change the data, inject the step's faults, wait until every issuer saw the new dataset. */
async function runStep(world: ChaosWorld, step: StepContext, options: ChaosOptions): Promise<StepRecord> {
  const { sandbox } = world.stack;
  const { story } = step;
  const firstRequest = sandbox.stats.requests.length;
  const startedAt = Date.now();
  const changes = changeData(world, step);
  const issuers = new Set(changes.map((c) => c.issuerId));
  story.add(
    'step',
    `step ${step.step} (${sandbox.scenario.today()}): ${changes.length} change(s) in ${issuers.size} issuer(s): ${describeCounts(countBy(changes.map((c) => c.kind)))}`,
  );
  const ctx: FaultContext = {
    world,
    story,
    hazards: step.hazards,
    outages: step.outages,
    problems: step.problems,
    changedIssuers: [...issuers],
    killMoments: options.profile.killMoments,
    serial: new Map(),
    issuersDown: new Set(),
  };
  const injecting = injectAll(step.faults, ctx, startedAt);
  if (step.scenario === 'unversioned') await blindPhase(world, step, options.stepTimeoutMs);
  await catchUp(world, step, { startedAt, injecting, timeoutMs: options.stepTimeoutMs });
  const upstream = countBy(
    sandbox.stats.requests.slice(firstRequest).map((r) => `${r.operation} ${r.status}`),
  );
  story.add('saw', `upstream answered ${describeCounts(upstream)} in step ${step.step}`);
  const served = step.episode.rowMissing;
  if (step.scenario === 'row-missing' && served) changes.push(...(await closeSeen(world, served, story)));
  if (step.scenario === 'unversioned') await noticeCleared(world, step, 30_000);
  const unused = sandbox.faults.pending();
  if (unused > 0) {
    sandbox.faults.clear();
    story.add('saw', `${unused} upstream fault(s) not reached by any request; cleared`);
  }
  story.add('saw', `received so far: ${describeCounts(sentCounts(world))}`);
  return { step: step.step, startedAt, changes };
}

/** Waits until every issuer saw the list's version, again after the step's faults ended (a late kill). */
async function catchUp(
  world: ChaosWorld,
  step: StepContext,
  wait: { startedAt: number; injecting: Promise<void>; timeoutMs: number },
): Promise<void> {
  const target = Date.parse(world.stack.sandbox.scenario.lastUpdated() ?? '');
  let behind = await waitCaughtUp(world, target, wait.timeoutMs);
  await wait.injecting;
  // A fault late in the window (a kill, a 401 episode) may have come after the first catch-up.
  if (behind.length === 0) behind = await waitCaughtUp(world, target, wait.timeoutMs);
  else behind = await waitCaughtUp(world, target, Math.max(0, wait.startedAt + wait.timeoutMs - Date.now()));
  if (behind.length > 0) {
    const why = await explainLag(world, behind, target);
    step.problems.push(`step ${step.step}: ${behind.length} issuer(s) never saw the new data`);
    step.story.add(
      'fail',
      `step ${step.step}: ${behind.length} issuer(s) never saw the new data within ${wait.timeoutMs} ms: ${why}`,
    );
  } else {
    step.story.add(
      'saw',
      `step ${step.step} observed by every issuer in ${((Date.now() - wait.startedAt) / 1000).toFixed(1)} s`,
    );
  }
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
