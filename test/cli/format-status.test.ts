import { describe, expect, it } from 'vitest';
import { formatStatus } from '../../src/cli/commands/state.js';
import type { BudgetStatus, StatusReport } from '../../src/ops/status.js';

const window = { used: 0, left: 100, cap: 100, resetsAt: '2026-01-05T08:01:00.000Z' };

const BUDGET: BudgetStatus = {
  minute: window,
  day: { ...window, cap: 1000, left: 1000 },
  reserve: 50,
  blockedReason: null,
  probing: null,
  sharedWith: [],
};

/** A fresh deployment: the watchlist configured, nothing polled, `start` never run. */
const FRESH: StatusReport = {
  generatedAt: '2026-01-05T08:00:00.000Z',
  upstream: { access: 'ok', since: null, blockedUntil: null },
  budget: BUDGET,
  plan: {
    gate: true,
    sweepEvery: '2m',
    gateIntervalMs: 120_000,
    sweepIntervalMs: 120_000,
    refreshesPerDay: 46,
    requestsPerDay: 950,
    summary: [],
  },
  sweep: { lastSweepAt: null, datasetLastUpdated: null, lastDue: null },
  watchlist: { all: false, issuers: 3, entries: 3, unresolved: [] },
  bound: { every: '2d', boundMs: 2 * 86_400_000, longest: null },
  issuers: [
    {
      id: 'ISS-0001',
      name: 'Acme plc',
      lastPoll: null,
      holders: 0,
      totalShort: 0,
      health: 'ok',
      problem: null,
    },
    {
      id: 'ISS-0002',
      name: 'Borealis plc',
      lastPoll: '2026-01-05T07:59:00.000Z',
      holders: 0,
      totalShort: 0,
      health: 'ok',
      problem: null,
    },
    {
      id: 'ISS-0003',
      name: 'Cobalt plc',
      lastPoll: '2026-01-05T07:59:00.000Z',
      holders: 3,
      totalShort: 2.5,
      health: 'ok',
      problem: null,
    },
  ],
  overdue: [],
  channels: [],
  schedulers: [
    { id: 'sweep', registered: false, next: null, late: false },
    { id: 'digest-morning', registered: true, next: '2026-01-05T07:30:00.000Z', late: true },
  ],
  processes: [],
  sources: [],
  subscribers: null,
  notices: [],
};

describe('formatStatus', () => {
  const text = formatStatus(FRESH);

  it('says an issuer was not polled yet instead of claiming 0 holders and 0%', () => {
    expect(text).toMatch(/^ISS-0001\s+Acme plc\s+not polled yet\s+-\s+-\s+ok$/m);
    // Polled and empty is a fact, and shows as one.
    expect(text).toMatch(/^ISS-0002\s+Borealis plc\s+2026-01-05T07:59:00\.000Z\s+0\s+0%\s+ok$/m);
    expect(text).toMatch(/^ISS-0003\s+Cobalt plc\s+2026-01-05T07:59:00\.000Z\s+3\s+2\.5%\s+ok$/m);
  });

  it('says how many issuers are watched, and under `watchlist: all` that they are the whole directory', () => {
    expect(text).toContain('\nWatchlist: 3 issuers\n');
    const whole = formatStatus({
      ...FRESH,
      watchlist: { all: true, issuers: 3, entries: 0, unresolved: [] },
    });
    expect(whole).toContain('\nWatchlist: whole directory, 3 issuers\n');
  });

  it('says when other deployments spend the same API key, and nothing when none does', () => {
    expect(text).toMatch(
      /^Budget: minute 0\/100 used \(100 left\), day 0\/1000 used \(1000 left, reserve 50\)$/m,
    );
    const shared = formatStatus({ ...FRESH, budget: { ...BUDGET, sharedWith: ['staging', 'qa'] } });
    expect(shared).toContain(
      'reserve 50); SHARED with deployment staging, qa (same API key): polls come later than planned\n',
    );
  });

  it('states the hard bound and which issuer has gone unpolled longest, while a daemon runs', () => {
    const running = { ...FRESH, processes: [{ id: 'host-1', role: 'start', seenAt: FRESH.generatedAt }] };
    expect(formatStatus(running)).toContain('\nHard bound: no watched issuer unpolled longer than 2d\n');
    const polled = formatStatus({
      ...running,
      bound: {
        ...FRESH.bound,
        longest: { id: 'ISS-0003', since: '2026-01-04T07:59:00.000Z', ageMs: 26 * 3_600_000 },
      },
    });
    expect(polled).toContain(
      '\nHard bound: no watched issuer unpolled longer than 2d; longest now 1d 2h (ISS-0003, polled 2026-01-04T07:59:00.000Z)\n',
    );
  });

  it('says a scheduler is not registered yet rather than LATE; a late one stays LATE', () => {
    expect(text).toContain(
      'Schedulers: sweep not registered yet (`shortwatch start` registers it); digest-morning next 2026-01-05T07:30:00.000Z (LATE)',
    );
  });

  it('lists the register sources with their state and the reason a file was not read', () => {
    const withSources = formatStatus({
      ...FRESH,
      sources: [
        {
          name: 'afm',
          kind: 'afm-current',
          state: 'read',
          reason: null,
          lastGoodAt: '2026-01-05T07:59:00.000Z',
        },
        {
          name: 'fca',
          kind: 'uk-ansp-current',
          state: 'not-read',
          reason: 'html-page: an HTML page was served in place of the file',
          lastGoodAt: null,
        },
      ],
    });
    expect(withSources).toMatch(/^afm +afm-current +read +2026-01-05T07:59:00.000Z$/m);
    expect(withSources).toMatch(
      /^fca +uk-ansp-current +not-read: html-page: an HTML page was served in place of the file +never$/m,
    );
    expect(text).not.toContain('REGISTER');
  });

  it('sums the subscribers and their outboxes, and says nothing of them without the section', () => {
    expect(formatStatus(FRESH)).not.toContain('Subscriber');
    const text = formatStatus({
      ...FRESH,
      subscribers: {
        total: 2_000,
        active: 1_990,
        paused: 6,
        unsubscribed: 4,
        digest: 500,
        outboxesWithWork: 3,
        ready: 2,
        held: 1,
        sending: 1,
        parked: 7,
        staged: 120,
        oldestUndeliveredMs: 90_000,
      },
    });
    expect(text).toContain('\nSubscribers: 2000 (1990 active, 6 paused, 4 unsubscribed; 500 on a digest)\n');
    expect(text).toContain(
      '\nSubscriber outboxes: 3 with work; 2 ready, 1 held, 1 sending, 7 parked, 120 staged; oldest unsent 1m 30s\n',
    );
  });

  it('counts and names the watchlist entries that do not resolve', () => {
    const unresolved = formatStatus({
      ...FRESH,
      watchlist: { all: false, issuers: 1, entries: 3, unresolved: ['Acme Plc Ltd', 'Borelis plc'] },
    });
    expect(unresolved).toContain(
      '\nWatchlist: 1 issuers of 3 entries; 2 NOT RESOLVED (not watched): "Acme Plc Ltd", "Borelis plc"\n',
    );
  });

  it('with no process beating, says no daemon runs first, and claims neither the bound nor the schedules', () => {
    expect(text.split('\n')[0]).toMatch(/^NO DAEMON RUNNING: /);
    expect(text).toContain('\nHard bound: NOT KEPT: no daemon is running\n');
    expect(text).toMatch(/^Schedulers: .*\(no daemon running to run them\)$/m);
  });
});

describe('formatStatus with the key revoked', () => {
  const revoked = formatStatus({
    ...FRESH,
    upstream: { access: 'unauthorized', since: '2026-01-05T07:00:00.000Z', blockedUntil: null },
    processes: [{ id: 'host-1', role: 'start', seenAt: '2026-01-05T07:59:55.000Z' }],
    issuers: FRESH.issuers.map((i) => ({ ...i, health: 'stopped', problem: 'upstream access revoked' })),
  });

  it('says polling is stopped on the first line, and keeps no bound and no "ok" row', () => {
    expect(revoked.split('\n')[0]).toBe(
      'POLLING STOPPED: UNAUTHORIZED (401) since 2026-01-05T07:00:00.000Z; polling stopped',
    );
    expect(revoked).not.toContain('no watched issuer unpolled longer than');
    expect(revoked).toContain('\nHard bound: NOT KEPT: polling is stopped (upstream access revoked)\n');
    expect(revoked).toMatch(/^ISS-0003\s+Cobalt plc\s+.*stopped: upstream access revoked$/m);
    expect(revoked).not.toMatch(/\sok$/m);
    expect(revoked).not.toContain('NO DAEMON RUNNING');
  });
});

describe('formatStatus without an upstream (registers only)', () => {
  const registersOnly = formatStatus({
    ...FRESH,
    upstream: null,
    budget: null,
    watchlist: { all: false, issuers: 0, entries: 0, unresolved: [] },
    issuers: [],
    schedulers: [],
    processes: [{ id: 'host-1', role: 'start', seenAt: FRESH.generatedAt }],
    sources: [
      { name: 'fca', kind: 'uk-ansp-current', state: 'read', reason: null, lastGoodAt: FRESH.generatedAt },
    ],
  });

  it('says no upstream API is configured in place of access, budget, plan, bound, sweep and issuers', () => {
    expect(registersOnly.split('\n')[0]).toBe(
      'Upstream: no upstream API configured (registers only: the sources below); no budget spent',
    );
    expect(registersOnly).not.toMatch(/^(Upstream access|Budget|Watchlist|Plan|Hard bound|Last sweep):/m);
    expect(registersOnly).not.toContain('ISSUER');
    expect(registersOnly).toMatch(/^fca +uk-ansp-current +read +2026-01-05T08:00:00.000Z$/m);
  });
});
