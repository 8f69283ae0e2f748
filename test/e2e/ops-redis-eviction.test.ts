import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { stringify } from 'yaml';
import { App } from '../../src/app.js';
import { parseConfig } from '../../src/config/load.js';
import { keyRoot } from '../../src/state/keys.js';
import { Notices } from '../../src/state/notices.js';
import {
  checkEvictionPolicy,
  describeEvictionPolicy,
  EVICTION_NOTICE,
  reportEvictionPolicy,
} from '../../src/state/redis-eviction.js';
import { captureLog, LEVEL } from '../helpers/log-capture.js';
import { type PrivateRedis, REDIS_SERVER, startPrivateRedis } from '../helpers/redis-server.js';
import { runShortwatch } from './harness.js';

const LRU = ['--maxmemory-policy', 'allkeys-lru'];
const NO_CONFIG = ['--rename-command', 'CONFIG', ''];
const NO_INFO = ['--rename-command', 'INFO', ''];

const dir = mkdtempSync(join(tmpdir(), 'shortwatch-eviction-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A config on the private Redis; the upstream is never asked (`check --offline`, no sweep awaited). */
function configObject(url: string): Record<string, unknown> {
  return {
    upstream: { baseUrl: 'http://127.0.0.1:1', apiKey: 'unused-key' },
    redis: { url, prefix: 'evict' },
    watchlist: [{ id: 'ISS-0001' }],
    channels: [{ name: 'out', kind: 'console' }],
  };
}

function writeConfig(name: string, url: string): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, stringify(configObject(url)));
  return path;
}

describe.skipIf(!REDIS_SERVER)('a Redis that may evict keys', () => {
  let redis: PrivateRedis;
  let spy: MockInstance;

  beforeAll(async () => {
    redis = await startPrivateRedis(LRU);
  });
  afterAll(async () => {
    await redis.stop();
  });
  // BullMQ prints its own "IMPORTANT! Eviction policy" line with console.warn; kept off the test output.
  afterEach(() => spy?.mockRestore());

  it('`shortwatch check` says so on a WARN line and still passes', async () => {
    const result = await runShortwatch(['check', '--offline', '-c', writeConfig('lru', redis.url)]);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines).toContainEqual(
      expect.stringMatching(/^WARN {2}redis maxmemory-policy is allkeys-lru, not noeviction/),
    );
    expect(lines).toContain('ok    redis answers (prefix evict)');
  });

  it('the daemon warns at every start and raises an ops notice, cleared once the policy is noeviction', async () => {
    spy = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const config = parseConfig(stringify(configObject(redis.url)), 'lru.yaml');
    const log = captureLog([], 'info');
    const start = async () => {
      const app = await App.open(config, { logger: log.logger, consoleOut: new PassThrough() });
      await app.startDaemon({ workerOnly: false });
      const notices = await app.ctx.notices.list();
      await app.stop(2_000);
      return notices.map((n) => n.key);
    };
    const evictionWarnings = () =>
      log
        .lines()
        .filter((line) => line.level === LEVEL.warn && line.msg.includes('maxmemory-policy is allkeys-lru'));

    expect(await start()).toContain(EVICTION_NOTICE);
    expect(evictionWarnings()).toHaveLength(1);
    // The notice is still active: the second start logs the warning itself.
    expect(await start()).toContain(EVICTION_NOTICE);
    expect(evictionWarnings()).toHaveLength(2);

    const admin = new Redis(redis.url);
    try {
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
      expect(await start()).not.toContain(EVICTION_NOTICE);
      expect(evictionWarnings()).toHaveLength(2);
      expect(
        log.withMessage(
          'Resolved: Redis may evict shortwatch state: Redis maxmemory-policy is noeviction now.',
        ),
      ).toHaveLength(1);
    } finally {
      await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
      admin.disconnect();
    }
  });
});

describe.skipIf(!REDIS_SERVER)('a managed Redis that disables CONFIG', () => {
  let redis: PrivateRedis | undefined;
  let client: Redis | undefined;

  afterEach(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  it('is still checked through INFO: `shortwatch check` warns about allkeys-lru', async () => {
    redis = await startPrivateRedis([...LRU, ...NO_CONFIG]);
    const result = await runShortwatch(['check', '--offline', '-c', writeConfig('no-config', redis.url)]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^WARN {2}redis maxmemory-policy is allkeys-lru, not noeviction/m);
  });

  it('says the policy could not be checked when INFO is refused too, and the daemon logs it at info', async () => {
    redis = await startPrivateRedis([...LRU, ...NO_CONFIG, ...NO_INFO]);
    // ioredis' ready check is an INFO, refused here.
    client = new Redis(redis.url, { enableReadyCheck: false });
    const policy = await checkEvictionPolicy(client);
    expect(policy).toEqual({
      state: 'unknown',
      reason: expect.stringMatching(
        /^CONFIG GET refused: ERR unknown command 'config'.*; INFO refused: ERR unknown command 'info'/,
      ),
    });
    expect(describeEvictionPolicy(policy)).toMatch(
      /^redis maxmemory-policy could not be checked \(CONFIG GET refused: .*\); make sure it is noeviction\.$/,
    );
    const log = captureLog([], 'info');
    const notices = new Notices(client, keyRoot('unchecked'), {
      logger: log.logger,
      now: () => new Date(),
      opsChannel: () => undefined,
      channelsFor: () => [],
    });
    await reportEvictionPolicy(policy, { logger: log.logger, notices });
    expect(log.lines().map((line) => [line.level, line.msg.slice(0, 48)])).toEqual([
      [LEVEL.info, 'redis maxmemory-policy could not be checked (CON'],
    ]);
    expect(await notices.list()).toEqual([]);
  });
});
