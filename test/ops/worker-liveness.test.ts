import { afterEach, describe, expect, it } from 'vitest';
import { type LivenessReport, WorkerLiveness, withLiveness } from '../../src/ops/worker-liveness.js';
import { keyRoot, stateKeys } from '../../src/state/keys.js';
import { waitFor } from '../e2e/harness.js';
import { captureLog } from '../helpers/log-capture.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

/*
 * The liveness check on real Redis and real BullMQ. A worker whose job connection ended for good (the
 * terminal ioredis state of BullMQ #4378: the worker still runs, takes nothing, says nothing) is the
 * stuck worker: the process is told to exit at once, for its supervisor to restart it (no rebuild in
 * place: crash-only).
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

  const start = async (dead: string[]) => {
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
      reachable: async () => true,
      jobs,
      logger: log.logger,
      workers: () => [],
      onDead: (reason) => dead.push(reason),
    });
    liveness.start();
    return { test, jobs, liveness, log };
  };

  it('proves the workers alive while probes complete, and registers the process', async () => {
    const dead: string[] = [];
    const { test, liveness: check } = await start(dead);
    await waitFor('a probe completed', () => check.report().state === 'alive');
    expect(check.report()).toMatchObject({ state: 'alive', reason: null });
    expect(await test.redis.hkeys(stateKeys(keyRoot(test.prefix)).liveness)).toEqual(['host-1']);
    expect(dead).toEqual([]);
  });

  it('asks the process to exit when its job connection ended, without rebuilding it', async () => {
    const dead: string[] = [];
    const { jobs, liveness: check, log } = await start(dead);
    await waitFor('alive', () => check.report().state === 'alive');
    jobs.disconnect();
    await waitFor('the process told to exit', () => dead.length === 1, 15_000);
    expect(check.report()).toMatchObject({ state: 'stuck' });
    expect(dead[0]).toMatch(/^no probe job completed for \d+ s while Redis answers$/);
    expect(jobs.status).toBe('end');
    expect(
      log.withMessage('BullMQ workers are stuck: exiting for the supervisor to restart the process'),
    ).toHaveLength(1);
  });
});

describe('withLiveness', () => {
  const ready = { ready: true, reasons: [] as string[] };
  const report = (state: LivenessReport['state']): LivenessReport => ({
    state,
    lastAliveAt: null,
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
