import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { formatDuration } from '../../src/config/duration.js';
import { sweepEvery } from '../../src/jobs/schedulers.js';
import type { StatusReport } from '../../src/ops/status.js';
import { round4 } from '../../src/positions/round.js';
import { latestByKey } from '../../src/sandbox/holder-diff.js';
import {
  type DaemonProcess,
  runShortwatch,
  type Stack,
  spawnDaemon,
  startStack,
  stopDaemons,
  updateConfig,
  waitFor,
} from './harness.js';

/** `shortwatch status` in a child process: its report parsed, or its human text. */
async function statusJson(stack: Stack): Promise<StatusReport> {
  const run = await runShortwatch(['-c', stack.configPath, 'status', '--json']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

async function statusText(stack: Stack): Promise<string> {
  const run = await runShortwatch(['-c', stack.configPath, 'status']);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

/** What the sandbox lists for an issuer right now: distinct holders and their summed value. */
function sandboxTotals(stack: Stack, issuerId: string): { holders: number; totalShort: number } {
  const latest = latestByKey(stack.sandbox.scenario.active(issuerId) ?? []);
  const total = [...latest.values()].reduce((sum, row) => sum + round4(row.value), 0);
  return { holders: latest.size, totalShort: round4(total) };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('shortwatch status against a running start + worker pair', () => {
  let stack: Stack;
  let app: App;
  let ids: string[];
  /** The terminal output taken together with the first JSON report. */
  let firstText = '';
  const daemons: DaemonProcess[] = [];

  beforeAll(async () => {
    stack = await startStack({ issuers: 5, seed: 21 });
    const issuers = stack.sandbox.scenario.issuers();
    ids = issuers.map((i) => i.svc_issuer_id);
    const last = issuers[4];
    if (!last) throw new Error('the scenario has fewer than 5 issuers');
    updateConfig(stack, (config) => ({
      ...config,
      // Four by id, one by a name spelt in another case with extra spaces: status must bind it too.
      watchlist: [
        ...issuers.slice(0, 4).map((i) => ({ id: i.svc_issuer_id })),
        { name: `  ${last.name.toUpperCase().replace(/ /g, '   ')} ` },
      ],
      channels: [
        ...(Array.isArray(config.channels) ? config.channels : []),
        // Quiet around the clock: its events wait in its outbox, held back until the quiet hours end.
        {
          name: 'late',
          kind: 'slack',
          webhookUrl: `${stack.slack.url}/late`,
          quietHours: { start: '00:00', end: '00:00', timezone: 'UTC' },
        },
        // A digest that will not run during the test: its events stay staged.
        {
          name: 'morning',
          kind: 'email',
          mode: 'digest',
          schedule: '0 0 1 1 *',
          timezone: 'UTC',
          host: stack.smtp.host,
          port: stack.smtp.port,
          secure: false,
          from: 'shortwatch@example.test',
          to: ['digest@example.test'],
        },
        // Notices go here: without an ops channel, critical ones would reach the channels counted below.
        { name: 'ops', kind: 'console' },
      ],
      ops: { channel: 'ops' },
    }));
    app = await stack.openApp();
    daemons.push(await spawnDaemon(stack, 'start'), await spawnDaemon(stack, 'worker'));
    await waitFor(
      'baseline snapshots of every watched issuer',
      async () => (await app.ctx.snapshots.getMany(ids)).size === ids.length,
      30_000,
    );
  }, 60_000);

  afterAll(async () => {
    await stopDaemons(daemons);
    await app?.stop(2_000);
    await stack?.cleanup();
  });

  it('reports access, budget, plan, sweep, issuers, channels, schedulers, processes and notices', async () => {
    const { scenario } = stack.sandbox;
    // The first desk message is refused for good (parked); every watched issuer gets one new holder.
    stack.slack.script({ status: 404, body: 'no_service' });
    ids.forEach((id, n) => {
      scenario.disclose(id, `Status Probe Capital ${n}`, 0.61 + n / 10);
    });
    const version = scenario.lastUpdated();
    await waitFor('every issuer polled at the new version', async () =>
      [...(await app.ctx.snapshots.getMany(ids)).values()].every((s) => s.lastUpdated === version),
    );
    await waitFor('one desk delivery parked', async () => (await app.ctx.outbox.parked('desk')).length === 1);
    await waitFor('the other four on Slack', () => stack.slack.delivered().length === ids.length - 1);
    await waitFor('five emails', () => stack.smtp.mails.length === ids.length);
    await waitFor('five held back on the quiet channel', async () => {
      const late = await app.ctx.outbox.depth('late', Date.now());
      return late.waiting === 5 && late.ready === 0;
    });
    await waitFor(
      'five events staged for the digest',
      async () => (await app.ctx.outbox.stagedCount('morning')) === 5,
    );

    const requestsBefore = stack.sandbox.stats.count();
    const [report, text] = await Promise.all([statusJson(stack), statusText(stack)]);
    firstText = text;
    const requestsAfter = stack.sandbox.stats.count();
    const generatedAt = Date.parse(report.generatedAt);

    expect(report.upstream).toEqual({ access: 'ok', since: null, blockedUntil: null });

    // Every request the sandbox saw took a token from the day window; a few may be in flight.
    const { minute, day } = report.budget ?? expect.unreachable('a budget section');
    expect(day.used).toBeGreaterThanOrEqual(requestsBefore);
    expect(day.used).toBeLessThanOrEqual(requestsAfter + 5);
    expect(day).toMatchObject({ cap: 5_000_000, left: 5_000_000 - day.used });
    expect(minute).toMatchObject({ cap: 6_000, left: 6_000 - minute.used });
    expect(minute.used).toBeLessThanOrEqual(day.used);
    expect(Date.parse(minute.resetsAt)).toBeGreaterThan(generatedAt);
    expect(Date.parse(day.resetsAt)).toBeGreaterThan(Date.parse(minute.resetsAt) - 1);
    expect(report.budget?.reserve).toBe(10);

    const { plan } = app.settings;
    expect(report.plan).toEqual({
      gate: true,
      sweepEvery: formatDuration(sweepEvery(plan)),
      gateIntervalMs: plan.gateIntervalMs,
      sweepIntervalMs: plan.sweepIntervalMs,
      refreshesPerDay: plan.refreshesPerDay,
      requestsPerDay: plan.requestsPerDay,
      summary: plan.summary,
    });
    expect(report.plan.sweepEvery).toBe('1s');
    expect(report.plan.summary.length).toBeGreaterThan(0);

    expect(report.sweep.datasetLastUpdated).toBe(version);
    expect(report.sweep.lastSweepAt).not.toBeNull();
    const lastSweepAt = Date.parse(report.sweep.lastSweepAt ?? '');
    expect(lastSweepAt).toBeLessThanOrEqual(generatedAt);
    expect(generatedAt - lastSweepAt).toBeLessThan(30_000);
    expect(report.sweep.lastDue).toEqual(expect.any(Number));

    const snapshots = await app.ctx.snapshots.getMany(ids);
    expect(report.issuers).toEqual(
      ids.map((id) => ({
        id,
        name: scenario.issuer(id)?.name,
        lastPoll: snapshots.get(id)?.polledAt,
        ...sandboxTotals(stack, id),
        health: 'ok',
        problem: null,
      })),
    );
    expect(report.overdue).toEqual([]);
    for (const issuer of report.issuers) expect(issuer.holders).toBeGreaterThan(0);

    // Nothing undelivered anywhere: the parked message and the ones quiet hours hold back do not count.
    const queue = {
      waiting: 0,
      delayed: 0,
      active: 0,
      failed: 0,
      staged: 0,
      oldestUndeliveredMs: null,
      stalled: false,
    };
    expect(report.channels).toEqual([
      { name: 'desk', kind: 'slack', mode: 'immediate', ...queue, failed: 1 },
      { name: 'alerts', kind: 'email', mode: 'immediate', ...queue },
      { name: 'late', kind: 'slack', mode: 'immediate', ...queue, delayed: 5 },
      { name: 'morning', kind: 'email', mode: 'digest', ...queue, staged: 5 },
      { name: 'ops', kind: 'console', mode: 'immediate', ...queue },
    ]);

    expect(report.schedulers.map((s) => s.id).sort()).toEqual(['digest-morning', 'sweep']);
    for (const scheduler of report.schedulers) {
      expect(scheduler.late).toBe(false);
      expect(Date.parse(scheduler.next ?? '')).toBeGreaterThan(generatedAt - 60_000);
    }
    expect(report.schedulers.find((s) => s.id === 'digest-morning')?.next).toMatch(/-01-01T00:00:00\.000Z$/);

    const [start, worker] = daemons;
    // A process id is its incarnation, `<host>-<pid>-<random>`.
    expect(report.processes.map((p) => [p.role, p.id.split('-').at(-2)]).sort()).toEqual([
      ['start', String(start?.child.pid)],
      ['worker', String(worker?.child.pid)],
    ]);
    for (const process of report.processes) {
      expect(generatedAt - Date.parse(process.seenAt)).toBeLessThan(30_000);
    }

    expect(report.notices).toEqual([
      expect.objectContaining({
        key: 'channel-parked-desk',
        severity: 'critical',
        title: 'Deliveries to desk are parked',
        text: expect.stringContaining('no_service'),
      }),
    ]);
  }, 60_000);

  it('prints the same report readably for a terminal', async () => {
    const text = firstText;
    const [start, worker] = daemons;
    expect(text).toMatch(/^Upstream access: ok$/m);
    expect(text).toMatch(
      /^Budget: minute \d+\/6000 used \(\d+ left\), day \d+\/5000000 used \(\d+ left, reserve 10\)$/m,
    );
    expect(text).toMatch(/^Plan: sweep every 1s, gate on, /m);
    expect(text).toContain(`dataset last_updated ${stack.sandbox.scenario.lastUpdated()}`);
    expect(text).toMatch(/^ISSUER\s+NAME\s+LAST POLL\s+HOLDERS\s+TOTAL SHORT\s+POLLING$/m);
    for (const id of ids) {
      const { holders, totalShort } = sandboxTotals(stack, id);
      const name = stack.sandbox.scenario.issuer(id)?.name ?? '';
      expect(text).toMatch(
        new RegExp(`^${id}\\s+${escapeRegExp(name)}\\s+\\S+\\s+${holders}\\s+${totalShort}%\\s+ok$`, 'm'),
      );
    }
    expect(text).toMatch(
      /^CHANNEL\s+KIND\s+MODE\s+READY\s+HELD\s+SENDING\s+PARKED\s+STAGED\s+OLDEST UNSENT$/m,
    );
    expect(text).toMatch(/^desk\s+slack\s+immediate\s+0\s+0\s+0\s+1\s+0\s+-$/m);
    expect(text).toMatch(/^late\s+slack\s+immediate\s+0\s+5\s+0\s+0\s+0\s+-$/m);
    expect(text).toMatch(/^morning\s+email\s+digest\s+0\s+0\s+0\s+0\s+5\s+-$/m);
    expect(text).toMatch(/^Schedulers: .*sweep next \d{4}-\d\d-\d\dT/m);
    expect(text).not.toContain('LATE');
    expect(text).toMatch(new RegExp(`^Processes alive: .*-${start?.child.pid}-[0-9a-f]+ \\(start\\)`, 'm'));
    expect(text).toMatch(new RegExp(`-${worker?.child.pid}-[0-9a-f]+ \\(worker\\)`));
    expect(text).toMatch(/^Notices: \[critical\] Deliveries to desk are parked$/m);
    // `deliveries` names the held messages with the word of `status` and the console.
    const listed = await runShortwatch(['-c', stack.configPath, 'deliveries']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^late\s+-\s+held\s+0\s+5 items/m);
    expect(listed.stdout).not.toMatch(/\bwaiting\b/);
  }, 60_000);

  it('shows a 401 as UNAUTHORIZED since when, until `shortwatch resume`', async () => {
    stack.sandbox.faults.inject({ status: 401, times: Number.POSITIVE_INFINITY });
    await waitFor('access revoked', async () => (await app.ctx.access.get()).state === 'unauthorized');
    const [report, text] = await Promise.all([statusJson(stack), statusText(stack)]);
    expect(report.upstream?.access).toBe('unauthorized');
    expect(report.upstream?.blockedUntil).toBeNull();
    const since = report.upstream?.since ?? '';
    expect(Date.parse(since)).toBeLessThanOrEqual(Date.parse(report.generatedAt));
    expect(report.notices.map((n) => [n.key, n.severity]).sort()).toEqual([
      ['access-revoked', 'critical'],
      ['channel-parked-desk', 'critical'],
    ]);
    expect(text).toContain(`Upstream access: UNAUTHORIZED (401) since ${since}; polling stopped`);
    expect(text).toContain('[critical] Upstream access revoked: polling stopped');
    // The access state comes first, and nothing claims polling is fine while it is stopped.
    expect(text.split('\n')[0]).toBe(`POLLING STOPPED: UNAUTHORIZED (401) since ${since}; polling stopped`);
    expect(text).not.toContain('no watched issuer unpolled longer than');
    expect(report.issuers.map((i) => i.health)).toEqual(ids.map(() => 'stopped'));

    stack.sandbox.faults.clear();
    const resumed = await runShortwatch(['-c', stack.configPath, 'resume']);
    expect(resumed.stdout).toContain('Upstream access marked ok');
    const resumedAt = new Date().toISOString();
    await waitFor('a sweep after the resume', async () => {
      const at = await stack.redis.redis.hget(stack.keys.sweep, 'lastSweepAt');
      return at !== null && at > resumedAt;
    });
  }, 60_000);

  it('shows a 429 as blocked until the time Retry-After gave', async () => {
    stack.sandbox.faults.rateLimit('minute', { retryAfterSeconds: 600 });
    const blockedAt = Date.now();
    await waitFor('the budget blocked', async () => (await app.ctx.budget.usage()).blockedUntil !== null);
    const [report, text] = await Promise.all([statusJson(stack), statusText(stack)]);
    // Access is back after the resume, and its notice cleared.
    expect(report.upstream?.access).toBe('ok');
    expect(report.upstream?.since).toBeNull();
    expect(report.notices.map((n) => n.key)).toEqual(['channel-parked-desk']);
    const until = Date.parse(report.upstream?.blockedUntil ?? '');
    // Retry-After 600 s from the 429, which came after `blockedAt` and before the report.
    expect(until).toBeGreaterThanOrEqual(blockedAt + 600_000 - 1_000);
    expect(until).toBeLessThanOrEqual(Date.parse(report.generatedAt) + 600_000 + 1_000);
    expect(text).toContain(`Upstream access: blocked by a 429 until ${report.upstream?.blockedUntil}`);
  }, 60_000);
});
