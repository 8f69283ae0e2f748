import type { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bannerLines } from '../../src/demo/banner.js';
import { ChaosRun, DEMO_CHAOS_TIMING } from '../../src/demo/chaos-run.js';
import {
  buildChaosSchedule,
  CHAOS_MODES,
  type ChaosIssuer,
  type ChaosPhase,
} from '../../src/demo/chaos-schedule.js';
import { DEMO_SCENARIO } from '../../src/demo/start-demo.js';
import { buildProgram } from '../../src/main.js';
import { createScenario, QUIRKS, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { call } from '../sandbox/http.js';

function demoCommand(): Command {
  const demo = buildProgram(() => undefined).commands.find((command) => command.name() === 'demo');
  if (!demo) throw new Error('no demo command');
  return demo;
}

/** The demo's issuers as `--chaos` sees them at start. */
function demoIssuers(): ChaosIssuer[] {
  const scenario = createScenario(DEMO_SCENARIO);
  return scenario.issuers().map((issuer) => ({
    id: issuer.svc_issuer_id,
    name: issuer.name,
    holders: scenario.active(issuer.svc_issuer_id)?.length ?? 0,
  }));
}

describe('demo --chaos: the option', () => {
  it('is parsed as a flag beside the others', () => {
    const demo = demoCommand();
    demo.parseOptions(['--chaos', '--duration', '90s']);
    expect(demo.opts()).toEqual({ out: 'demo-out', duration: '90s', chaos: true });
  });

  it('is off unless given: plain `demo` keeps its options', () => {
    const demo = demoCommand();
    demo.parseOptions([]);
    expect(demo.opts()).toEqual({ out: 'demo-out' });
  });
});

describe('demo --chaos: the schedule', () => {
  const issuers = demoIssuers();
  const schedule = buildChaosSchedule(issuers);

  it('has one phase per mode, covering every quirk, the transient 404 and the 429 without Retry-After', () => {
    expect(schedule.map((phase) => phase.mode)).toEqual([...CHAOS_MODES]);
    const quirks = schedule.flatMap((p) => (p.fault.kind === 'inject' && p.fault.spec.quirk) || []);
    expect([...quirks].sort()).toEqual([...QUIRKS].sort());
    const [notFound] = schedule.filter((p) => p.mode === 'transient-404');
    expect(notFound?.fault).toEqual({
      kind: 'inject',
      spec: { issuerId: notFound?.issuer?.id, status: 404, times: 1 },
    });
    const [limited] = schedule.filter((p) => p.mode === 'rate-limit-without-retry-after');
    expect(limited?.fault).toEqual({
      kind: 'rateLimit',
      window: 'minute',
      options: { retryAfterSeconds: null, times: 1 },
    });
  });

  it('aims each quirk at the issuer it names, once or for the whole phase as it says', () => {
    for (const phase of schedule) {
      if (phase.fault.kind !== 'inject') continue;
      expect(phase.fault.spec.issuerId).toBe(phase.issuer?.id);
      expect(phase.fault.spec.times).toBe(phase.once ? 1 : Number.POSITIVE_INFINITY);
    }
    const everyIssuer = schedule.filter((p) => p.issuer === undefined).map((p) => p.mode);
    expect(everyIssuer).toEqual([
      'null-last-updated',
      'lagging-last-updated',
      'rate-limit-without-retry-after',
    ]);
  });

  it('spreads the per-issuer phases over several issuers that list holders', () => {
    const targets = schedule.flatMap((phase) => (phase.issuer ? [phase.issuer.id] : []));
    expect(new Set(targets).size).toBeGreaterThan(3);
    const holders = new Map(issuers.map((issuer) => [issuer.id, issuer.holders]));
    for (const id of targets) expect(holders.get(id)).toBeGreaterThan(0);
  });

  it('names the next issuer of the list in the wrong-issuer phase, as the sandbox answers', () => {
    const [wrong] = schedule.filter((p) => p.mode === 'wrong-issuer');
    const at = issuers.findIndex((issuer) => issuer.id === wrong?.issuer?.id);
    const next = issuers[(at + 1) % issuers.length];
    expect(wrong?.says).toContain(`${next?.name} (${next?.id})`);
  });

  it('falls back to every issuer when none lists a holder', () => {
    const empty = buildChaosSchedule([
      { id: 'A', name: 'A plc', holders: 0 },
      { id: 'B', name: 'B plc', holders: 0 },
    ]);
    expect(new Set(empty.flatMap((p) => (p.issuer ? [p.issuer.id] : [])))).toEqual(new Set(['A', 'B']));
  });

  it('is announced in the banner only when chaos is on', () => {
    const info = {
      sandboxUrl: 'http://127.0.0.1:1',
      issuers: 8,
      stepEveryMs: 5_000,
      caps: { perMinute: 6_000, perDay: 5_000_000 },
      gateEveryMs: 2_000,
      slackUrl: 'http://127.0.0.1:2',
      smtp: '127.0.0.1:3',
      redis: 'redis://127.0.0.1:6379',
      redisStarted: false,
      prefix: 'shortwatch-demo-0badcafe',
      configFile: 'config/demo.yaml',
      channels: [],
      out: 'demo-out',
    };
    const plain = bannerLines(info);
    expect(plain.join('\n')).not.toMatch(/chaos/);
    const chaos = bannerLines({ ...info, chaos: { modes: CHAOS_MODES, ...DEMO_CHAOS_TIMING } });
    expect(chaos.length).toBe(plain.length + 2);
    for (const mode of CHAOS_MODES) expect(chaos.join('\n')).toContain(mode);
  });
});

describe('demo --chaos: the run, against a real sandbox', () => {
  let sandbox: Sandbox;
  let lines: string[];
  const schedule = buildChaosSchedule(demoIssuers());
  const at = new Date(2026, 0, 5, 12, 0, 30);

  beforeEach(async () => {
    sandbox = await startSandbox({ scenario: createScenario(DEMO_SCENARIO) });
    lines = [];
  });
  afterEach(() => sandbox.close());

  const phaseNamed = (mode: ChaosPhase['mode']): ChaosPhase => {
    const phase = schedule.find((p) => p.mode === mode);
    if (!phase) throw new Error(`no phase ${mode}`);
    return phase;
  };

  it('says which quirk is active and where, applies it, and clears it when the phase ends', async () => {
    const run = new ChaosRun(
      sandbox,
      schedule,
      (line) => lines.push(line),
      () => at,
    );
    const vanish = phaseNamed('vanish');
    const path = `/issuers/${vanish.issuer?.id}/positions`;
    let phase = run.next();
    while (phase && phase.mode !== 'vanish') phase = run.next();
    const started = lines.at(-1) ?? '';
    expect(started).toMatch(/^12:00:30 chaos +\[7\/10\] vanish on /);
    expect(started).toContain(`${vanish.issuer?.name} (${vanish.issuer?.id}), once: ${vanish.says}`);
    expect((await call(sandbox, path)).json()).toMatchObject({ data: [] });
    run.end();
    expect(lines.at(-1)).toMatch(
      /vanish over after 0s: 1 positions requests for ISS-\d+ and 0 issuer-list requests; sent once$/,
    );
    expect(sandbox.faults.pending()).toBe(0);
    expect((await call(sandbox, path)).json()).toMatchObject({
      data: sandbox.scenario.active(vanish.issuer?.id ?? ''),
    });
  });

  it('starts each phase with a line naming its mode, round again after the last, one fault at a time', () => {
    const run = new ChaosRun(
      sandbox,
      schedule,
      (line) => lines.push(line),
      () => at,
    );
    for (let i = 0; i < schedule.length + 1; i++) {
      run.next();
      expect(sandbox.faults.pending()).toBe(1);
    }
    const starts = lines.filter((line) => /\[\d+\/\d+\]/.test(line));
    expect(starts.map((line) => /\] ([a-z0-9-]+)/.exec(line)?.[1])).toEqual([...CHAOS_MODES, CHAOS_MODES[0]]);
    expect(lines.filter((line) => / over after /.test(line))).toHaveLength(schedule.length);
  });

  it('counts what a phase on every issuer cost, and a 429 the phase sent', async () => {
    const run = new ChaosRun(
      sandbox,
      schedule,
      (line) => lines.push(line),
      () => at,
    );
    run.next();
    await call(sandbox, '/issuers');
    await call(sandbox, '/issuers/ISS-0001/positions');
    await call(sandbox, '/issuers/ISS-0002/positions');
    expect(lines.at(-1)).toContain('null-last-updated on every issuer, until the next phase');
    while (run.next()?.mode !== 'rate-limit-without-retry-after');
    const limited = await call(sandbox, '/issuers/ISS-0003/positions');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeNull();
    run.end();
    expect(lines.at(-1)).toContain(
      '1 positions requests (1 answered 429) and 0 issuer-list requests; sent once',
    );
    expect(lines.find((line) => line.includes('null-last-updated over'))).toContain(
      '2 positions requests and 1 issuer-list requests',
    );
  });
});
