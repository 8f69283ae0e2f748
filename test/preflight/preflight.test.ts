// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} config placeholders, not templates
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadConfigWithLazySecrets } from '../../src/config/lazy-secrets.js';
import { configIssues, watchlistIssues } from '../../src/preflight/preflight.js';
import type { Issuer } from '../../src/upstream/index.js';

const dir = mkdtempSync(join(tmpdir(), 'shortwatch-preflight-'));
let files = 0;

/** A valid config with `change` applied, loaded the way the CLI loads it. */
function config(change: (c: Record<string, unknown>) => Record<string, unknown> = (c) => c) {
  const base = {
    upstream: { baseUrl: 'https://api.example.com', apiKey: 'key-1' },
    watchlist: [{ id: 'ISS-0001' }, { name: 'Vantage Bank plc' }],
    channels: [
      { name: 'desk', kind: 'slack', webhookUrl: '${SLACK_WEBHOOK_URL}' },
      {
        name: 'morning',
        kind: 'email',
        mode: 'digest',
        schedule: '30 7 * * 1-5',
        timezone: 'Europe/London',
        host: 'smtp.example.com',
        from: 'a@example.com',
        to: ['b@example.com'],
      },
    ],
    ops: { channel: 'desk', heartbeat: '0 9 * * *' },
  };
  files += 1;
  const path = join(dir, `c${files}.yaml`);
  writeFileSync(path, stringify(change(structuredClone(base))));
  return loadConfigWithLazySecrets(path, { SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T/B/x' });
}

function withSchedule(schedule: string) {
  return (c: Record<string, unknown>) => ({
    ...c,
    channels: [
      { name: 'desk', kind: 'slack', webhookUrl: '${SLACK_WEBHOOK_URL}' },
      { name: 'morning', kind: 'console', mode: 'digest', schedule, timezone: 'Europe/London' },
    ],
  });
}

describe('configIssues', () => {
  it('finds nothing in a config start accepts', () => {
    expect(configIssues(config())).toEqual([]);
  });

  it.each<[string, (c: Record<string, unknown>) => Record<string, unknown>, string]>([
    ['a digest schedule in words', withSchedule('every weekday at 7:30'), 'channels[1].schedule'],
    ['a digest schedule out of range', withSchedule('61 25 * * *'), 'channels[1].schedule'],
    [
      'a digest schedule with a three-ended range',
      withSchedule('30 7 * * mon-fri-sat'),
      'channels[1].schedule',
    ],
    [
      'a heartbeat out of range',
      (c) => ({ ...c, ops: { channel: 'desk', heartbeat: '0 24 * * *' } }),
      'ops.heartbeat',
    ],
    [
      'an unset secret',
      (c) => ({ ...c, upstream: { baseUrl: 'https://api.example.com', apiKey: '${NOPE}' } }),
      'upstream.apiKey',
    ],
    [
      'a watchlist the budget cannot carry',
      (c) => ({ ...c, budget: { perDay: 2, reserve: 1 } }),
      'watchlist',
    ],
  ])('reports %s at its key path', (_name, change, path) => {
    const issues = configIssues(config(change));
    expect(issues.map((i) => i.path)).toEqual([path]);
  });

  it('quotes the pattern and says what is wrong with it', () => {
    expect(configIssues(config(withSchedule('30 7 * * mon-fri-sat')))).toEqual([
      {
        path: 'channels[1].schedule',
        message:
          '"30 7 * * mon-fri-sat" is not a cron pattern: the range "mon-fri-sat" has more than two ends',
      },
    ]);
  });
});

describe('watchlistIssues', () => {
  const directory: Issuer[] = [
    { svc_issuer_id: 'ISS-0001', name: 'Acme plc' },
    { svc_issuer_id: 'ISS-0002', name: 'Vantage Bank plc' },
    { svc_issuer_id: 'ISS-0003', name: 'Twin plc' },
    { svc_issuer_id: 'ISS-0004', name: 'TWIN PLC' },
  ];

  it('binds names and ids, and puts each problem at its entry', () => {
    const { watched, issues } = watchlistIssues(
      [{ name: 'Vantage Bnak plc' }, { id: 'ISS-0001' }, { name: 'vantage bank plc' }, { name: 'Twin plc' }],
      directory,
    );
    expect(watched.map((w) => w.id)).toEqual(['ISS-0001', 'ISS-0002']);
    expect(issues.map((i) => i.path)).toEqual(['watchlist[0].name', 'watchlist[3].name']);
    expect(issues[0]?.message).toContain(
      '"Vantage Bnak plc" matches no issuer; closest: Vantage Bank plc (ISS-0002)',
    );
    expect(issues[1]?.message).toContain('matches several issuers');
  });
});
