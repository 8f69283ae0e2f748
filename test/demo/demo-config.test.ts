import { describe, expect, it } from 'vitest';
import { planFor } from '../../src/app.js';
import { describeChannel } from '../../src/demo/banner.js';
import { loadDemoConfig } from '../../src/demo/demo-config.js';
import { DEMO_SCENARIO } from '../../src/demo/start-demo.js';
import { resolveWatchlist } from '../../src/jobs/watchlist.js';
import { describeFilter } from '../../src/routing/describe-filter.js';
import { createScenario } from '../../src/sandbox/index.js';

const endpoints = {
  upstreamUrl: 'http://127.0.0.1:4001',
  slackUrl: 'http://127.0.0.1:4002/services/T/B/x',
  smtpPort: 4003,
  redisUrl: 'redis://127.0.0.1:4004',
  prefix: 'shortwatch-demo-0badcafe',
};

describe('config/demo.yaml', () => {
  const env: NodeJS.ProcessEnv = { PATH: '/bin' };
  const config = loadDemoConfig(endpoints, env);

  it('takes the local endpoints from its placeholders, without touching the environment given', () => {
    expect(config.upstream?.baseUrl).toBe(endpoints.upstreamUrl);
    expect(config.redis.url.reveal()).toBe(endpoints.redisUrl);
    expect(config.redis.prefix).toBe(endpoints.prefix);
    const slack = config.channels.find((c) => c.kind === 'slack');
    expect(slack?.kind === 'slack' && slack.webhookUrl.reveal()).toBe(endpoints.slackUrl);
    for (const channel of config.channels) {
      if (channel.kind === 'email') expect(channel.smtpUrl?.reveal()).toBe('smtp://127.0.0.1:4003');
    }
    expect(env).toEqual({ PATH: '/bin' });
  });

  it('has a Slack feed, an immediate email with a filter, an email digest with a seconds cron and an ops channel', () => {
    const shape = config.channels.map((c) => [c.name, c.kind, c.mode, describeFilter(c.filter)]);
    expect(shape).toEqual([
      ['desk', 'slack', 'immediate', 'every change'],
      ['watch', 'email', 'immediate', 'changes crossing 0.5%, 1%, 2%'],
      ['digest', 'email', 'digest', 'every change'],
      // The ops channel takes notices only (routing never sends it an event): the desk feed keeps every change.
      ['ops', 'slack', 'immediate', 'every change'],
    ]);
    expect(config.ops.channel).toBe('ops');
    const digest = config.channels.find((c) => c.mode === 'digest');
    expect(digest?.schedule?.split(' ')).toHaveLength(6);
  });

  it('watches every issuer of the demo scenario, by names that resolve', () => {
    const issuers = createScenario(DEMO_SCENARIO).issuers();
    const { watched, problems } = resolveWatchlist(config.watchlist, issuers);
    expect(problems).toEqual([]);
    expect(watched.map((w) => w.id).sort()).toEqual(issuers.map((i) => i.svc_issuer_id).sort());
  });

  it('tells a poll overdue after 30 s, not after two 2 s gates: a busy laptop opened the demo with a false alarm', () => {
    // Seen beside a full suite: "Polling is behind for 8 issuers … due for 5s" (ERROR) in the first 14 s.
    expect(config.poll.overdueAfter).toBe(30_000);
  });

  it('plans a gate every few seconds: the demo caps need no adjustment', () => {
    const plan = planFor(config);
    expect(plan.adjusted).toEqual([]);
    expect(plan.gate).toBe(true);
    expect(plan.gateIntervalMs).toBeLessThanOrEqual(5_000);
  });
});

describe('describeFilter and describeChannel', () => {
  it.each([
    ['an empty filter', {}, 'every change'],
    ['holders and kinds', { holders: ['GLG'], kinds: ['opened' as const] }, 'holders GLG; opened only'],
    [
      'values and moves',
      { minValue: 1, minDelta: 0.2, issuerTotalThresholds: [10] },
      'positions of 1% or more; moves of 0.2 pp or more; issuer totals crossing 10%',
    ],
    ['issuers and exclusions', { issuers: ['Acme plc'], excludeHolders: ['X'] }, 'issuers Acme plc; not X'],
  ])('%s', (_name, filter, words) => {
    expect(describeFilter(filter)).toBe(words);
  });

  it('names a digest with its schedule and zone', () => {
    const config = loadDemoConfig(endpoints, {});
    const digest = config.channels.find((c) => c.mode === 'digest');
    expect(digest && describeChannel(digest)).toBe(
      'digest (email digest on "*/30 * * * * *" (Europe/London)): every change',
    );
  });
});
