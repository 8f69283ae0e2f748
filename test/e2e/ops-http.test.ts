import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import {
  type DaemonProcess,
  freePort,
  httpGet,
  metricValue,
  parseMetrics,
  runShortwatch,
  type Stack,
  spawnDaemon,
  startStack,
  stopDaemons,
  updateConfig,
  waitFor,
} from './harness.js';

/** Scrapes `/metrics` and parses it. */
async function scrape(base: string) {
  const { status, body } = await httpGet(`${base}/metrics`);
  expect(status).toBe(200);
  return parseMetrics(body);
}

describe('the HTTP endpoint of a running daemon', () => {
  let stack: Stack;
  let app: App | undefined;
  const daemons: DaemonProcess[] = [];

  afterEach(async () => {
    await stopDaemons(daemons.splice(0));
    await app?.stop(2_000);
    app = undefined;
    await stack.cleanup();
  });

  it('serves /healthz, /metrics matching the event log and the stand-ins, and /readyz following access', async () => {
    stack = await startStack({ issuers: 5, seed: 31 });
    const port = await freePort();
    updateConfig(stack, (config) => ({ ...config, http: { port, host: '127.0.0.1' } }));
    const base = `http://127.0.0.1:${port}`;
    app = await stack.openApp();
    daemons.push(await spawnDaemon(stack, 'start'));
    const { scenario } = stack.sandbox;
    const ids = scenario.issuers().map((i) => i.svc_issuer_id);

    await waitFor('/healthz', async () => (await httpGet(`${base}/healthz`)).status === 200);
    expect(await httpGet(`${base}/healthz`)).toEqual({ status: 200, body: 'ok\n' });
    expect((await httpGet(`${base}/nowhere`)).status).toBe(404);
    await waitFor(
      'baseline snapshots',
      async () => (await app?.ctx.snapshots.getMany(ids))?.size === ids.length,
    );
    // Ready with no notice once the baseline is in. Waited for: on a busy machine a slow baseline makes
    // issuers overdue (1 s gate), and their notices stay active until the next sweep finds them polled.
    const settled = JSON.stringify({ ready: true, reasons: [], notices: [] });
    const ready = await waitFor('/readyz ready with no notice', async () => {
      const answer = await httpGet(`${base}/readyz`);
      return JSON.stringify(JSON.parse(answer.body)) === settled ? answer : undefined;
    });
    expect(ready?.status).toBe(200);
    expect(JSON.parse(ready?.body ?? '')).toEqual({ ready: true, reasons: [], notices: [] });

    // One change of each kind, on three issuers: three messages per channel.
    const holders = (id: string | undefined) => scenario.active(id ?? '') ?? [];
    const [closed, increased] = ids.filter((id) => holders(id).length > 0);
    const opened = ids.find((id) => id !== closed && id !== increased);
    const dropped = holders(closed)[0];
    const raised = holders(increased)[0];
    if (!opened || !closed || !increased || !dropped || !raised) throw new Error('scenario too small');
    scenario.disclose(opened, 'Metrics Test Capital LLP', 0.72);
    scenario.drop(closed, dropped.position_holder);
    scenario.disclose(increased, raised.position_holder, raised.value + 0.3);
    await waitFor('three Slack messages', () => stack.slack.delivered().length === 3);
    await waitFor('three emails', () => stack.smtp.mails.length === 3);

    const sent = (samples: ReturnType<typeof parseMetrics>['samples'], channel: string) =>
      metricValue(samples, 'shortwatch_deliveries_total', { channel, outcome: 'sent' });
    await waitFor('the delivery counters to catch up', async () => {
      const scraped = await scrape(base);
      return sent(scraped.samples, 'desk') === 3 && sent(scraped.samples, 'alerts') === 3;
    });
    let metrics = await scrape(base);
    await waitFor('a sweep skipped by the gate', async () => {
      metrics = await scrape(base);
      return metricValue(metrics.samples, 'shortwatch_sweeps_skipped_by_gate_total') > 0;
    });
    const { samples, types } = metrics;
    const value = (name: string, labels: Record<string, string> = {}) => metricValue(samples, name, labels);

    // Naming: every metric is ours, and every counter ends in _total.
    expect(samples.length).toBeGreaterThan(0);
    for (const sample of samples) expect(sample.name).toMatch(/^shortwatch_[a-z_]+$/);
    for (const [name, type] of types) {
      expect(name).toMatch(/^shortwatch_/);
      if (type === 'counter') expect(name).toMatch(/_total$/);
    }
    expect(types.get('shortwatch_poll_duration_seconds')).toBe('histogram');

    expect(
      value('shortwatch_upstream_requests_total', { operation: 'issuers', status: '200' }),
    ).toBeGreaterThan(0);
    // Ten polls and one status=all for the closed event, as the sandbox saw them.
    expect(value('shortwatch_upstream_requests_total', { operation: 'positions', status: '200' })).toBe(
      stack.sandbox.stats.count({ operation: 'positions', status: 200 }),
    );

    const logged = await app.ctx.eventLog.recent({ limit: 1_000 });
    const perKind = new Map<string, number>();
    for (const event of logged) perKind.set(event.kind, (perKind.get(event.kind) ?? 0) + 1);
    expect([...perKind.keys()].sort()).toEqual(['closed', 'increased', 'opened']);
    for (const kind of ['opened', 'increased', 'decreased', 'closed']) {
      expect(value('shortwatch_events_total', { kind })).toBe(perKind.get(kind) ?? 0);
    }

    expect(sent(samples, 'desk')).toBe(stack.slack.delivered().length);
    expect(sent(samples, 'alerts')).toBe(stack.smtp.mails.length);
    // Every message left the desk outbox: nothing waits, none is in flight, none is parked.
    for (const state of ['waiting', 'ready', 'inflight', 'parked']) {
      expect(value('shortwatch_queue_jobs', { queue: 'outbox-desk', state }), state).toBe(0);
    }
    expect(samples.some((s) => s.labels.queue === 'outbox-desk')).toBe(true);
    // The dataset moved once after the baseline, so the gate polled every issuer twice; an issuer whose whole
    // list emptied is read once more before its closes are told (the confirming read, issue 28). A poll
    // still waiting when the next sweep comes (a busy machine) is planned again, and that job finds the
    // snapshot current or the issuer's lease held: it asks nothing, and is counted as such.
    const emptied = new Set(logged.filter((e) => e.kind === 'closed').map((e) => e.issuer.id)).size;
    const completed = value('shortwatch_queue_jobs', { queue: 'poll', state: 'completed' });
    const askedNothing =
      value('shortwatch_polls_total', { outcome: 'current' }) +
      value('shortwatch_polls_total', { outcome: 'busy' });
    expect(completed).toBeGreaterThanOrEqual(10);
    expect(completed).toBeLessThanOrEqual(10 + emptied + askedNothing);

    expect(value('shortwatch_polls_total', { outcome: 'baseline' })).toBe(5);
    expect(value('shortwatch_polls_total', { outcome: 'changed' })).toBe(3);
    expect(value('shortwatch_polls_total', { outcome: 'unchanged' })).toBe(2);
    expect(value('shortwatch_poll_duration_seconds_count')).toBe(value('shortwatch_polls_total'));
    expect(value('shortwatch_poll_duration_seconds_sum')).toBeGreaterThan(0);

    expect(value('shortwatch_sweeps_total', { outcome: 'polled' })).toBeGreaterThanOrEqual(2);
    expect(value('shortwatch_sweeps_total', { outcome: 'unchanged' })).toBeGreaterThan(0);
    expect(value('shortwatch_sweeps_total', { outcome: 'failed' })).toBe(0);

    const usage = await app.ctx.budget.usage();
    const dayLeft = value('shortwatch_budget_left', { window: 'day' });
    expect(dayLeft).toBeGreaterThanOrEqual(usage.day.left);
    expect(dayLeft).toBeLessThan(5_000_000);
    expect(value('shortwatch_budget_left', { window: 'minute' })).toBeLessThan(6_000);
    const age = value('shortwatch_last_sweep_age_seconds');
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(30);
    expect(value('shortwatch_last_sweep_timestamp_seconds')).toBeGreaterThan(Date.parse('2025-01-01') / 1000);

    // A 401 revokes access: not ready (the process is still healthy) until an operator resumes.
    stack.sandbox.faults.inject({ status: 401, times: Number.POSITIVE_INFINITY });
    let revoked = await httpGet(`${base}/readyz`);
    // The access state and its notice are written one after the other: wait for both.
    await waitFor('/readyz 503 with the notice', async () => {
      revoked = await httpGet(`${base}/readyz`);
      return revoked.status === 503 && JSON.parse(revoked.body).notices.length > 0;
    });
    expect(JSON.parse(revoked.body)).toEqual({
      ready: false,
      reasons: ['upstream access revoked (unauthorized)'],
      notices: ['critical: Upstream access revoked: polling stopped'],
    });
    expect((await httpGet(`${base}/healthz`)).status).toBe(200);
    const after401 = (await scrape(base)).samples;
    expect(metricValue(after401, 'shortwatch_upstream_requests_total', { status: '401' })).toBeGreaterThan(0);

    stack.sandbox.faults.clear();
    const resumed = await runShortwatch(['-c', stack.configPath, 'resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const resumedAt = new Date().toISOString();
    await waitFor('a successful sweep after the resume', async () => {
      const at = await stack.redis.redis.hget(stack.keys.sweep, 'lastSweepAt');
      return at !== null && at > resumedAt;
    });
    const back = await httpGet(`${base}/readyz`);
    expect(back.status).toBe(200);
    expect(JSON.parse(back.body)).toEqual({ ready: true, reasons: [], notices: [] });
  }, 60_000);
});
