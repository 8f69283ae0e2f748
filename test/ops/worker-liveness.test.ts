import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { type LivenessReport, WorkerLiveness, withLiveness } from '../../src/ops/worker-liveness.js';
import { keyRoot, stateKeys } from '../../src/state/keys.js';
import { waitFor } from '../e2e/harness.js';
import { captureLog } from '../helpers/log-capture.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

/*
 * The liveness check on real Redis and real BullMQ. A worker whose job connection ended for good (the
 * terminal ioredis state of BullMQ #4378: the worker still runs, takes nothing, says nothing) is the
 * stuck worker: its connections are recreated once, and when that does not help either the process is
 * told to exit.
 */
describe('worker liveness', () => {
  let redis: TestRedis | undefined;
  let liveness: WorkerLiveness | undefined;

  afterEach(async () => {
    await liveness?.stop();
    liveness = undefined;
    await redis?.cleanup();
    redis = undefined;
  });

  const start = async (recreate: () => Promise<Redis>, dead: string[]) => {
    const test = await createTestRedis('live');
    redis = test;
    const jobs = test.connect();
    const log = captureLog([], 'debug');
    liveness = new WorkerLiveness({
      root: keyRoot(test.prefix),
      processId: 'host-1',
      intervalMs: 100,
      timeoutMs: 1_000,
      commands: test.redis,
      jobs,
      logger: log.logger,
      workers: () => [],
      recreate,
      onDead: (reason) => dead.push(reason),
    });
    liveness.start();
    return { test, jobs, liveness, log };
  };

  it('proves the workers alive while probes complete, and registers the process', async () => {
    const dead: string[] = [];
    const { test, liveness: check } = await start(async () => test.connect(), dead);
    await waitFor('a probe completed', () => check.report().state === 'alive');
    expect(check.report()).toMatchObject({ state: 'alive', recreations: 0, reason: null });
    expect(await test.redis.hkeys(stateKeys(keyRoot(test.prefix)).liveness)).toEqual(['host-1']);
    expect(dead).toEqual([]);
  });

  it('recreates the connections of a worker whose connection ended, and it takes jobs again', async () => {
    const dead: string[] = [];
    let recreated = 0;
    const {
      test,
      jobs,
      liveness: check,
    } = await start(async () => {
      recreated += 1;
      return test.connect();
    }, dead);
    await waitFor('alive', () => check.report().state === 'alive');
    jobs.disconnect();
    await waitFor('stuck, then recreated', () => check.report().recreations === 1, 10_000);
    await waitFor('alive again', () => check.report().state === 'alive', 10_000);
    expect(recreated).toBe(1);
    expect(dead).toEqual([]);
  });

  it('asks the process to exit when recreating does not help', async () => {
    const dead: string[] = [];
    const {
      test,
      jobs,
      liveness: check,
    } = await start(async () => {
      const broken = test.connect();
      broken.disconnect();
      return broken;
    }, dead);
    await waitFor('alive', () => check.report().state === 'alive');
    jobs.disconnect();
    await waitFor('the process told to exit', () => dead.length === 1, 15_000);
    expect(check.report()).toMatchObject({ state: 'stuck', recreations: 1 });
    expect(dead[0]).toMatch(/^no probe job completed for \d+ s while Redis answers$/);
  });
});

describe('withLiveness', () => {
  const ready = { ready: true, reasons: [] as string[] };
  const report = (state: LivenessReport['state']): LivenessReport => ({
    state,
    lastAliveAt: null,
    recreations: 0,
    reason: state === 'stuck' ? 'no probe job completed for 31 s while Redis answers' : null,
  });

  it.each([
    ['no liveness (a CLI process)', undefined, true, []],
    ['starting', report('starting'), true, []],
    ['alive', report('alive'), true, []],
    ['redis down', report('redis-down'), false, ['workers redis-down']],
    ['stuck', report('stuck'), false, ['workers stuck: no probe job completed for 31 s while Redis answers']],
  ] as const)('%s', (_, liveness, readyAfter, reasons) => {
    const merged = withLiveness(ready, liveness);
    expect(merged.ready).toBe(readyAfter);
    expect(merged.reasons).toEqual(reasons);
  });

  it('names the delivery path and keeps its record apart', () => {
    const merged = withLiveness(ready, report('stuck'), 'delivery');
    expect(merged).toMatchObject({
      ready: false,
      reasons: ['delivery stuck: no probe job completed for 31 s while Redis answers'],
      deliveryLiveness: { state: 'stuck' },
    });
    expect(merged.liveness).toBeUndefined();
  });
});
