import { setTimeout as sleep } from 'node:timers/promises';
import { stateKeys } from '../../src/state/keys.js';
import { countBy, describeCounts } from './observe.js';
import type { Story } from './story.js';
import type { ChaosWorld } from './world.js';

/** The warning notice the sweep keeps up while the issuer list carries no version. */
export const UNVERSIONED_NOTICE = 'dataset-unversioned';

/** Where the step reports. */
interface Report {
  step: number;
  story: Story;
  problems: string[];
}

/** Issuers not polled since `sinceMs`: with no version to compare, the poll time says what was seen. */
async function notPolledSince(world: ChaosWorld, sinceMs: number): Promise<string[]> {
  const snapshots = await world.snapshots.getMany(world.issuerIds);
  return world.issuerIds.filter((id) => {
    const polledAt = snapshots.get(id)?.polledAt;
    return !(polledAt && Date.parse(polledAt) >= sinceMs);
  });
}

async function noticeActive(world: ChaosWorld): Promise<boolean> {
  return (await world.redis.hexists(stateKeys(world.root).notices, UNVERSIONED_NOTICE)) === 1;
}

/** Polls `check` every 200 ms until it holds or `timeoutMs` passes; whether it held. */
async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(200);
  }
}

function fail(report: Report, message: string): void {
  report.problems.push(`step ${report.step}: ${message}`);
  report.story.add('fail', `step ${report.step}: ${message}`);
}

/**
 * The step's data changed while the issuer list says `last_updated: null` (set right after the change,
 * before any gate check could see its version). The daemon must poll every issuer blind, at the budget's
 * pace, and raise the notice; then the version returns, just after the step's own, and the step is
 * caught up the usual way.
 */
export async function blindPhase(world: ChaosWorld, report: Report, timeoutMs: number): Promise<void> {
  const { sandbox } = world.stack;
  const version = sandbox.scenario.lastUpdated();
  const since = Date.now();
  const firstRequest = sandbox.stats.requests.length;
  sandbox.scenario.setLastUpdated(null);
  report.story.add('inject', 'the issuer list and positions answers say `last_updated: null`');
  const raised = await until(() => noticeActive(world), timeoutMs);
  if (!raised) fail(report, `no \`${UNVERSIONED_NOTICE}\` notice while the list had no version`);
  const polled = await until(async () => (await notPolledSince(world, since)).length === 0, timeoutMs);
  const requests = sandbox.stats.requests.slice(firstRequest);
  const seconds = ((Date.now() - since) / 1000).toFixed(1);
  if (!polled) {
    const behind = await notPolledSince(world, since);
    fail(
      report,
      `${behind.length} issuer(s) not polled blind within ${timeoutMs} ms: ${behind.slice(0, 6).join(', ')}`,
    );
  } else {
    report.story.add(
      'saw',
      `every issuer polled blind in ${seconds} s (notice \`${UNVERSIONED_NOTICE}\` ${raised ? 'raised' : 'MISSING'}); upstream answered ${describeCounts(countBy(requests.map((r) => `${r.operation} ${r.status}`)))}`,
    );
  }
  // Half a second after the step's version: later than anything seen, earlier than the next step's.
  const back = new Date(Date.parse(version ?? '') + 500).toISOString();
  sandbox.scenario.setLastUpdated(back);
  report.story.add('inject', `the list carries a version again: ${back}`);
}

/** After the step caught up with the returned version: the notice must be cleared. */
export async function noticeCleared(world: ChaosWorld, report: Report, timeoutMs: number): Promise<void> {
  const cleared = await until(async () => !(await noticeActive(world)), timeoutMs);
  if (cleared) report.story.add('saw', `notice \`${UNVERSIONED_NOTICE}\` cleared once versions returned`);
  else fail(report, `notice \`${UNVERSIONED_NOTICE}\` still active after versions returned`);
}
