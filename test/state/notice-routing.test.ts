import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { noticeChannels } from '../../src/state/notice-routing.js';
import { Notices } from '../../src/state/notices.js';
import { Outbox } from '../../src/state/outbox.js';
import { silentLogger } from '../../src/telemetry/logger.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

const dir = mkdtempSync(join(tmpdir(), 'shortwatch-notice-routing-'));
let files = 0;

/** Slack desk, e-mail alerts, a webhook, a console digest; `ops` names the ops channel or none. */
function config(ops?: string): Config {
  files += 1;
  const path = join(dir, `c${files}.yaml`);
  const mail = { kind: 'email', host: 'smtp.example.com', from: 'a@example.com', to: ['b@example.com'] };
  const channels = [
    { name: 'desk', kind: 'slack', webhookUrl: 'https://hooks.slack.com/services/T/B/x' },
    { name: 'alerts', ...mail },
    {
      name: 'hook',
      kind: 'webhook',
      url: 'https://example.com/in',
      signingSecret: `whsec_${Buffer.alloc(24, 1).toString('base64')}`,
    },
    { name: 'morning', kind: 'console', mode: 'digest', schedule: '30 7 * * 1-5' },
  ];
  const ops_ = ops === undefined ? {} : { ops: { channel: ops } };
  writeFileSync(
    path,
    stringify({
      upstream: { baseUrl: 'https://api.example.com', apiKey: 'k' },
      watchlist: [{ id: 'ISS-1' }],
      channels,
      ...ops_,
    }),
  );
  return loadConfig(path);
}

describe('noticeChannels', () => {
  it.each([
    ['an ops channel carries every severity', 'alerts', 'warning', ['alerts']],
    ['an ops channel carries a critical one alone', 'alerts', 'critical', ['alerts']],
    [
      'no ops channel: a critical notice reaches every immediate people channel',
      undefined,
      'critical',
      ['desk', 'alerts'],
    ],
    ['no ops channel: a warning reaches no channel', undefined, 'warning', []],
  ] as const)('%s', (_, ops, severity, expected) => {
    expect(noticeChannels(config(ops), severity)).toEqual(expected);
  });
});

describe('Notices without an ops channel', () => {
  let t: TestRedis;
  let outbox: Outbox;
  let notices: Notices;

  beforeEach(async () => {
    t = await createTestRedis('notice-routing');
    outbox = new Outbox(t.redis, t.prefix);
    const settings = config();
    notices = new Notices(t.redis, t.prefix, {
      logger: silentLogger(),
      now: () => new Date(),
      opsChannel: () => undefined,
      channelsFor: (severity) => noticeChannels(settings, severity),
    });
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const queued = async (channel: string) =>
    (await outbox.ready(channel, Date.now() + 1_000, 10)).items.map((item) =>
      item.kind === 'message' && item.message.type === 'notice'
        ? `${item.message.severity}:${item.message.key}`
        : '?',
    );

  it('queues a critical notice and its clear to every people channel, once; a warning to none', async () => {
    expect(await notices.raise('access-revoked', 'critical', 'Access revoked', 'The key was refused.')).toBe(
      true,
    );
    expect(await notices.raise('access-revoked', 'critical', 'Access revoked', 'Again.')).toBe(false);
    expect(await notices.raise('budget-shared', 'warning', 'Budget shared', 'Another deployment.')).toBe(
      true,
    );
    expect(await notices.clear('access-revoked', 'Access is back.')).toBe(true);
    for (const channel of ['desk', 'alerts']) {
      expect(await queued(channel)).toEqual(['critical:access-revoked', 'resolved:access-revoked']);
    }
    expect(await queued('hook')).toEqual([]);
    expect(await queued('morning')).toEqual([]);
    expect((await notices.list()).map((n) => n.key)).toEqual(['budget-shared']);
  });
  it('words a clear with the title raised: each channel adds the one "Resolved" label itself', async () => {
    await notices.raise('access-revoked', 'critical', 'Access revoked', 'The key was refused.');
    await notices.clear('access-revoked', 'Access is back.');
    const titles = (await outbox.ready('desk', Date.now() + 1_000, 10)).items.map((item) =>
      item.kind === 'message' && item.message.type === 'notice'
        ? `${item.message.severity}: ${item.message.title}`
        : '?',
    );
    expect(titles).toEqual(['critical: Access revoked', 'resolved: Access revoked']);
  });
});
