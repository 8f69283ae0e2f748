import { describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { formatStatus } from '../../src/cli/commands/state.js';
import { collectStatus } from '../../src/ops/status.js';
import {
  runShortwatch,
  type Stack,
  slackIssuers,
  slackText,
  startStack,
  updateConfig,
  usePerTest,
  waitFor,
} from './harness.js';

// `watchlist: all` watches the whole directory and follows it: an issuer the upstream adds is polled,
// its first poll a silent baseline; one it drops is no longer polled, and that is no operator problem.

const JOINER = { svc_issuer_id: 'ISS-0901', name: 'Newly Listed Robotics plc' };

/** Polls waiting, running or held: none means every poll planned so far has run. */
async function pollsPending(app: App): Promise<number> {
  const counts = await app.queues.poll.getJobCounts('wait', 'active', 'prioritized', 'delayed');
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

/** The issuers Slack messages on the desk channel (not the ops channel) have spoken of. */
function deskIssuers(stack: Stack): string[] {
  return stack.slack
    .delivered()
    .filter((post) => !post.path.endsWith('/ops'))
    .flatMap((post) => slackIssuers(post.payload));
}

describe('watchlist: all', () => {
  const current = usePerTest();

  it('polls every issuer, follows one joining and one leaving, and check/plan/status say the directory size', async () => {
    // `overdueAfter` far past this test: it asserts that an issuer leaving raises no notice, and on a busy
    // machine a slow baseline would otherwise make issuers overdue (two 1 s gates) and tell the ops channel.
    const stack = await startStack({
      issuers: 4,
      seed: 41,
      channels: ['slack', 'ops'],
      config: { poll: { gateInterval: '1s', concurrency: 4, overdueAfter: '5m' } },
    });
    current.stack = stack;
    updateConfig(stack, (config) => ({ ...config, watchlist: 'all' }));
    const { sandbox } = stack;
    const [stays, leaver] = sandbox.scenario.issuers();
    if (!stays || !leaver) throw new Error('the scenario has too few issuers');
    const before = sandbox.scenario.issuers().map((i) => i.svc_issuer_id);

    const check = await runShortwatch(['-c', stack.configPath, 'check']);
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toContain('watchlist all (the whole directory)');
    expect(check.stdout).toContain(
      'ok    watchlist: the whole directory (watchlist: all), 4 issuers as GET /issuers lists them',
    );
    expect(check.stdout).toContain("ok    plan for the directory's 4 issuers: ");
    const plan = await runShortwatch(['-c', stack.configPath, 'plan']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(
      'Watchlist: the whole directory (watchlist: all), 4 issuers as GET /issuers',
    );
    expect(plan.stdout).toContain('across 4 issuers');

    const app = await stack.openApp();
    current.app = app;
    await app.startDaemon({ workerOnly: false });
    await waitFor('a baseline of every sandbox issuer', async () => {
      return (await app.ctx.snapshots.getMany(before)).size === before.length;
    });
    const status = await collectStatus(app);
    expect(status.watchlist).toMatchObject({ all: true, issuers: 4 });
    expect(formatStatus(status)).toContain('Watchlist: whole directory, 4 issuers');

    // The upstream lists a new issuer that already has a disclosed position, and drops another.
    sandbox.scenario.addIssuer(JOINER);
    sandbox.scenario.disclose(JOINER.svc_issuer_id, 'Existing Holder Capital LLP', 0.92);
    sandbox.scenario.removeIssuer(leaver.svc_issuer_id);

    const joined = await waitFor('the new issuer baselined', async () =>
      app.ctx.snapshots.get(JOINER.svc_issuer_id),
    );
    expect(Object.values(joined?.positions ?? {}).map((p) => p.value)).toEqual([0.92]);
    await waitFor('the saved directory without the issuer that left', async () => {
      const ids = (await app.ctx.directory.load())?.issuers.map((i) => i.svc_issuer_id) ?? [];
      return ids.includes(JOINER.svc_issuer_id) && !ids.includes(leaver.svc_issuer_id);
    });
    await waitFor('the plan and the watched set following the directory', () =>
      app.settings.watched.some((w) => w.id === JOINER.svc_issuer_id),
    );
    expect(app.settings.watched.map((w) => w.id).sort()).toEqual(
      [...before.filter((id) => id !== leaver.svc_issuer_id), JOINER.svc_issuer_id].sort(),
    );
    await waitFor('every planned poll run', async () => (await pollsPending(app)) === 0);
    const leaverPolls = sandbox.stats.count({ operation: 'positions', issuerId: leaver.svc_issuer_id });

    // A change on the new issuer and one on an issuer that stays: both told, and the new issuer's
    // position from before it was listed never was (its first poll was the baseline).
    sandbox.scenario.disclose(JOINER.svc_issuer_id, 'Existing Holder Capital LLP', 1.34);
    sandbox.scenario.disclose(stays.svc_issuer_id, 'Later Change Partners LLP', 0.77);
    await waitFor('Slack messages about the new issuer and the one that stays', () => {
      const told = deskIssuers(stack);
      return told.includes(JOINER.svc_issuer_id) && told.includes(stays.svc_issuer_id);
    });
    const events = await app.ctx.eventLog.recent({ limit: 50 });
    const joinerEvents = events.filter((e) => e.issuer.id === JOINER.svc_issuer_id);
    expect(joinerEvents.map((e) => [e.kind, e.previous?.value, e.current?.value])).toEqual([
      ['increased', 0.92, 1.34],
    ]);
    await waitFor('every planned poll run', async () => (await pollsPending(app)) === 0);

    // The issuer that left: not asked again, no operator notice, its snapshot kept for a return.
    expect(sandbox.stats.count({ operation: 'positions', issuerId: leaver.svc_issuer_id })).toBe(leaverPolls);
    const notices = (await app.ctx.notices.list()).map((n) => n.key);
    expect(notices).toEqual([]);
    // The ops channel takes alerts too (it has no filter): none of its posts speaks of the issuer that left.
    const ops = stack.slack.delivered().filter((post) => post.path.endsWith('/ops'));
    expect(
      ops.map((post) => slackText(post.payload)).filter((t) => t.includes(leaver.svc_issuer_id)),
    ).toEqual([]);
    expect(await app.ctx.snapshots.get(leaver.svc_issuer_id)).not.toBeNull();
    expect((await collectStatus(app)).watchlist).toMatchObject({ all: true, issuers: 4 });
    // Two spawned CLI processes (check, plan) and a daemon through two directory changes: about 16 s
    // alone, and each spawned process takes several times longer on 2 cores busy with other work.
  }, 90_000);

  it('sets aside an issuer list that comes back far shorter, and believes it only when it stays so', async () => {
    const stack = await startStack({ issuers: 15, seed: 43, channels: ['slack', 'ops'] });
    current.stack = stack;
    updateConfig(stack, (config) => ({ ...config, watchlist: 'all' }));
    const { sandbox } = stack;
    const all = sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    const app = await stack.openApp();
    current.app = app;
    await app.startDaemon({ workerOnly: false });
    await waitFor(
      'a baseline of every issuer',
      async () => (await app.ctx.snapshots.getMany(all)).size === all.length,
    );
    const saved = async () => (await app.ctx.directory.load())?.issuers.length;
    const notices = async () => (await app.ctx.notices.list()).map((n) => n.key);
    const checks = () => sandbox.stats.count({ operation: 'issuers' });

    // Twelve of fifteen gone at once: before, the list was taken as is and twelve issuers went unpolled
    // without a word. Now it is a partial answer until it has been seen on three checks in a row.
    for (const id of all.slice(3)) sandbox.scenario.removeIssuer(id);
    const from = checks();
    await waitFor('the shorter list seen', async () => (await notices()).includes('directory-shrank'));
    expect(await saved()).toBe(15);
    await waitFor('three checks with it', async () => checks() >= from + 3);
    await waitFor('the shorter list believed', async () => (await saved()) === 3);
    expect(await notices()).not.toContain('directory-shrank');
    expect((await collectStatus(app)).watchlist).toMatchObject({ all: true, issuers: 3 });
  });
});
