import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/app.js';
import { parseConfig } from '../../src/config/load.js';
import { schedulerHealth, syncSchedulers } from '../../src/jobs/schedulers.js';
import { readiness } from '../../src/ops/status.js';
import { silentLogger } from '../../src/telemetry/logger.js';
import { createTestRedis, TEST_REDIS_URL, type TestRedis } from '../helpers/redis.js';

describe('schedulerHealth', () => {
  let redis: TestRedis | undefined;
  let app: App | undefined;

  afterEach(async () => {
    await app?.stop(1_000);
    await redis?.cleanup();
    app = undefined;
    redis = undefined;
  });

  async function openApp(): Promise<App> {
    redis = await createTestRedis('sched');
    const config = parseConfig(
      `
upstream: { baseUrl: "http://127.0.0.1:9", apiKey: k }
redis: { url: "${TEST_REDIS_URL}", prefix: ${redis.prefix} }
channels:
  - { name: morning, kind: console, mode: digest, schedule: "30 7 * * 1-5", timezone: Europe/London }
`,
      'test.yaml',
    );
    app = await App.open(config, { logger: silentLogger() });
    return app;
  }

  it('before `start` registers them: not registered, not late, and /readyz counts them missing', async () => {
    const opened = await openApp();
    const now = Date.now();
    expect(await schedulerHealth(opened.queues, opened.settings.config, now)).toEqual([
      { id: 'sweep', registered: false, next: null, late: false },
      { id: 'digest-morning', registered: false, next: null, late: false },
    ]);
    const ready = await readiness(opened);
    expect(ready.reasons).toContain('scheduler sweep is missing or late');
    expect(ready.reasons).toContain('scheduler digest-morning is missing or late');
  });

  it('registered: on time until its next run is over 5 minutes past', async () => {
    const opened = await openApp();
    await syncSchedulers(opened.queues, opened.settings.config, opened.settings.plan);
    const now = Date.now();
    const health = await schedulerHealth(opened.queues, opened.settings.config, now);
    expect(health.map((s) => [s.id, s.registered, s.late])).toEqual([
      ['sweep', true, false],
      ['digest-morning', true, false],
    ]);
    for (const s of health) expect(s.next).toBeGreaterThan(now - 60_000);
    const next = health[0]?.next ?? 0;
    const at = async (ms: number) =>
      (await schedulerHealth(opened.queues, opened.settings.config, ms)).find((s) => s.id === 'sweep')?.late;
    expect(await at(next + 5 * 60_000)).toBe(false);
    expect(await at(next + 5 * 60_000 + 1)).toBe(true);
  });
});
