import { PassThrough } from 'node:stream';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { stringify } from 'yaml';
import { App } from '../../src/app.js';
import { parseConfig } from '../../src/config/load.js';
import { collectSecrets } from '../../src/config/secret.js';
import { createScenario, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { captureLog, LEVEL } from '../helpers/log-capture.js';
import { type PrivateRedis, REDIS_SERVER, startPrivateRedis } from '../helpers/redis-server.js';
import { waitFor } from './harness.js';

const PASSWORD = 'redis-SWSECRET-pass-5c1d';
const LOST = 'redis connection lost; retrying (logged once until it is back)';
const RECOVERED = 'redis connection recovered';

/*
 * Redis errors used to be logged at debug only, and BullMQ, having no `error` listener on its queues,
 * printed raw stack dumps with console.error into the JSON log on every reconnect attempt. Now every
 * connection the App opens (its own three and BullMQ's queues and workers) reports to one RedisHealth:
 * one warning per outage, one recovery line, no stack, no password, nothing on the console.
 */
describe.skipIf(!REDIS_SERVER)('a daemon whose Redis goes away twice', () => {
  let redis: PrivateRedis | undefined;
  let sandbox: Sandbox | undefined;
  let app: App | undefined;
  let probe: Redis | undefined;
  const spies: MockInstance[] = [];

  afterEach(async () => {
    probe?.disconnect();
    await app?.stop(2_000);
    app = undefined;
    await sandbox?.close();
    await redis?.stop();
    for (const spy of spies.splice(0)) spy.mockRestore();
  });

  it('logs one structured warning per outage and one recovery, and BullMQ prints nothing', async () => {
    redis = await startPrivateRedis(['--requirepass', PASSWORD], PASSWORD);
    const server = redis;
    sandbox = await startSandbox({ scenario: createScenario({ seed: 3, issuers: 2 }) });
    const config = parseConfig(
      stringify({
        upstream: { baseUrl: sandbox.url, apiKey: 'sandbox-key', timeout: '2s' },
        redis: { url: server.url, prefix: 'outage' },
        poll: { gateInterval: '1s' },
        watchlist: sandbox.scenario.issuers().map((i) => ({ id: i.svc_issuer_id })),
        channels: [{ name: 'out', kind: 'console' }],
      }),
      'outage.yaml',
    );
    const log = captureLog(collectSecrets(config), 'info');
    for (const method of ['error', 'warn'] as const) {
      spies.push(vi.spyOn(console, method).mockImplementation(() => {}));
    }
    app = await App.open(config, { logger: log.logger, consoleOut: new PassThrough() });
    await app.startDaemon({ workerOnly: false });

    // A connection of the test's own counts reconnect failures: many per outage, one warning.
    const failures = { count: 0 };
    probe = new Redis(server.url, { retryStrategy: () => 50, maxRetriesPerRequest: null });
    probe.on('error', () => {
      failures.count += 1;
    });

    for (const outage of [1, 2]) {
      const before = failures.count;
      await server.stop();
      await waitFor('the warning', () => log.withMessage(LOST).length >= outage);
      await waitFor('a second or so of failing retries', () => failures.count - before >= 20);
      expect(log.withMessage(LOST)).toHaveLength(outage);
      await server.start();
      await waitFor('the recovery', () => log.withMessage(RECOVERED).length >= outage, 30_000);
    }
    expect(log.withMessage(LOST)).toHaveLength(2);
    expect(log.withMessage(RECOVERED)).toHaveLength(2);

    const lost = log.withMessage(LOST);
    expect(lost.map((line) => line.level)).toEqual([LEVEL.warn, LEVEL.warn]);
    for (const line of lost) {
      expect(line.error).toMatchObject({ type: expect.any(String), message: expect.any(String) });
      expect(JSON.stringify(line)).not.toMatch(/stack|\n {4}at /);
    }
    const recovered = log.withMessage(RECOVERED);
    expect(recovered.map((line) => line.level)).toEqual([LEVEL.info, LEVEL.info]);
    // Every connection retried, several times: all of it folded into the one warning.
    for (const line of recovered) expect(line.errors).toBeGreaterThan(3);

    // A restart without persistence loses the jobs in flight, and BullMQ may say so ("Missing key for
    // job"): logged, structured, but never a connection error, which belongs to the warning above.
    for (const line of log.withMessage('BullMQ error')) {
      expect(line.level).toBe(LEVEL.error);
      expect(JSON.stringify(line.error)).not.toMatch(/ECONN|Connection is closed|stack/);
    }
    expect(log.text()).not.toContain('SWSECRET');
    // log.lines() parses every line: the log stayed JSON throughout.
    expect(log.lines().length).toBeGreaterThanOrEqual(4);
    const [error, warn] = spies;
    expect(error?.mock.calls).toEqual([]);
    expect(warn?.mock.calls).toEqual([]);
  });
});
