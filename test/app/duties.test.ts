import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accessNoticeClears, accessNoticeUp } from '../../src/app/duties/access-notice.js';
import { afterRetiring, channelStep } from '../../src/app/duties/channel-accounting.js';
import { ledgerToRecord } from '../../src/app/duties/deployment-ledger.js';
import { sweepMoved } from '../../src/app/duties/directory-follow.js';
import { epochResponse } from '../../src/app/duties/epoch-watch.js';
import { processRecord } from '../../src/app/duties/process-heartbeat.js';
import { rateLimitNoticeClears, rateLimitNoticeUp } from '../../src/app/duties/rate-limit-notice.js';
import { refusalCheckLine } from '../../src/app/duties/refusal-confirmation.js';
import { otherDeployments } from '../../src/app/duties/shared-budget.js';
import { subscribersChanged } from '../../src/app/duties/subscriber-digests.js';
import { ACCESS_REVOKED_NOTICE } from '../../src/budget/access-state.js';
import { RATE_LIMITED_NOTICE } from '../../src/upstream-clients.js';

/* The decision of each of the daemon's periodic duties (src/app/duties/), apart from its effect. */

describe('process-heartbeat', () => {
  it.each([
    { workerOnly: false, role: 'start' },
    { workerOnly: true, role: 'worker' },
  ])('a process with workerOnly $workerOnly beats as $role', ({ workerOnly, role }) => {
    const at = new Date('2026-03-02T10:00:00.000Z');
    expect(processRecord(workerOnly, 42, 'box', at)).toEqual({
      role,
      pid: 42,
      host: 'box',
      seenAt: '2026-03-02T10:00:00.000Z',
    });
  });
});

describe('deployment-ledger', () => {
  it.each([
    { fingerprint: '0123456789abcdef', recorded: '0123456789abcdef' },
    { fingerprint: 'unread-key', recorded: null },
    { fingerprint: '0123456789ABCDEF', recorded: null },
    { fingerprint: '0123456789abcde', recorded: null },
  ])('records $fingerprint as $recorded', ({ fingerprint, recorded }) => {
    expect(ledgerToRecord(fingerprint)).toBe(recorded);
  });
});

describe('refusal-confirmation', () => {
  it('an answer says polling goes on, at info', () => {
    expect(refusalCheckLine({ answered: true })).toEqual({
      level: 'info',
      message: 'an interactive command was refused with this key; the upstream accepts it: polling goes on',
    });
  });
  it('a refusal is told at warn (the guard stopped polling itself)', () => {
    expect(refusalCheckLine({ answered: false, error: new Error('401') }).level).toBe('warn');
  });
});

describe('access-notice', () => {
  it.each([
    { active: [ACCESS_REVOKED_NOTICE], up: true },
    { active: ['budget-shared', ACCESS_REVOKED_NOTICE], up: true },
    { active: ['budget-shared'], up: false },
    { active: [], up: false },
  ])('with $active up, reads the access record: $up', ({ active, up }) => {
    expect(accessNoticeUp(active.map((key) => ({ key })))).toBe(up);
  });
  it.each([
    { state: 'ok', clears: true },
    { state: 'unauthorized', clears: false },
    { state: 'no-api-access', clears: false },
  ])('access $state clears the notice: $clears', ({ state, clears }) => {
    expect(accessNoticeClears({ state })).toBe(clears);
  });
});

describe('shared-budget', () => {
  it.each([
    { spenders: ['prod'], others: [] },
    { spenders: ['prod', 'staging'], others: ['staging'] },
    { spenders: ['staging', 'prod', 'test'], others: ['staging', 'test'] },
    { spenders: [], others: [] },
  ])('$spenders spending, prod shares with $others', ({ spenders, others }) => {
    expect(otherDeployments(spenders, 'prod')).toEqual(others);
  });
});

describe('rate-limit-notice', () => {
  it.each([
    { active: [RATE_LIMITED_NOTICE], up: true },
    { active: [ACCESS_REVOKED_NOTICE], up: false },
  ])('with $active up, reads the budget: $up', ({ active, up }) => {
    expect(rateLimitNoticeUp(active.map((key) => ({ key })))).toBe(up);
  });
  it.each([
    { probing: null, clears: true },
    { probing: { window: 'day' }, clears: false },
  ])('probing $probing clears the notice: $clears', ({ probing, clears }) => {
    expect(rateLimitNoticeClears({ probing })).toBe(clears);
  });
});

describe('epoch-watch', () => {
  it.each([
    { lost: false, schedules: true, lostEpoch: null, resync: false },
    { lost: true, schedules: true, lostEpoch: 'old', resync: true },
    { lost: true, schedules: false, lostEpoch: 'old', resync: false },
  ])('lost $lost in a process scheduling $schedules: report $lostEpoch, resync $resync', (row) => {
    const check = row.lost
      ? { lost: true as const, epoch: 'new', previous: 'old' }
      : { lost: false as const, epoch: 'new' };
    expect(epochResponse(check, row.schedules)).toEqual({
      lostEpoch: row.lostEpoch,
      resyncSchedulers: row.resync,
    });
  });
});

describe('channel-accounting', () => {
  it.each([
    { configured: true, noticeUp: false, step: 'nothing' },
    { configured: true, noticeUp: true, step: 'clear-removed-notice' },
    { configured: false, noticeUp: false, step: 'retire' },
    { configured: false, noticeUp: true, step: 'retire' },
  ])('configured $configured, notice up $noticeUp: $step', ({ configured, noticeUp, step }) => {
    expect(channelStep(configured, noticeUp)).toBe(step);
  });
  it.each([
    { retired: 'busy' as const, parked: 0, next: 'later' },
    { retired: { parked: 0, staged: 0 }, parked: 0, next: 'forget' },
    { retired: { parked: 2, staged: 0 }, parked: 2, next: 'tell' },
    { retired: { parked: 0, staged: 3 }, parked: 0, next: 'tell' },
    // Parked by an earlier beat: still told, not forgotten.
    { retired: { parked: 0, staged: 0 }, parked: 5, next: 'tell' },
  ])('retired $retired with $parked parked: $next', ({ retired, parked, next }) => {
    expect(afterRetiring(retired, parked)).toBe(next);
  });
});

describe('directory-follow', () => {
  it.each([
    { schedules: true, before: 60_000, after: 90_000, moved: true },
    { schedules: true, before: 60_000, after: 60_000, moved: false },
    { schedules: false, before: 60_000, after: 90_000, moved: false },
  ])(
    'scheduling $schedules, interval $before → $after: upsert $moved',
    ({ schedules, before, after, moved }) => {
      expect(sweepMoved(schedules, before, after)).toBe(moved);
    },
  );
});

describe('subscriber-digests', () => {
  it.each([
    ['first look', undefined, '3', true],
    ['unchanged', '3', '3', false],
    ['a subscriber changed', '3', '4', true],
    ['a worker, or no subscribers section', undefined, undefined, false],
  ] as const)('%s', (_name, seen, version, changed) => {
    expect(subscribersChanged(seen, version)).toBe(changed);
  });
});

describe('docs/architecture.md', () => {
  const root = join(import.meta.dirname, '..', '..');
  it('lists every duty of src/app/duties/ in its table of periodic duties', () => {
    const dir = join(root, 'src', 'app', 'duties');
    const named = readdirSync(dir).flatMap((file) =>
      [...readFileSync(join(dir, file), 'utf8').matchAll(/^\s+name: '([a-z-]+)',$/gm)].map((m) => m[1]),
    );
    const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
    const section = doc.split("## The daemon's periodic duties")[1]?.split('\n## ')[0] ?? '';
    const listed = [...section.matchAll(/^\| `([a-z-]+)` \| 10 s \|/gm)].map((m) => m[1]);
    expect(named).toHaveLength(11);
    expect([...listed].sort()).toEqual([...named].sort());
  });
});
