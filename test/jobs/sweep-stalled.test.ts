import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { App } from '../../src/app.js';
import { parseConfig } from '../../src/config/load.js';
import { runSweep } from '../../src/jobs/sweep.js';
import { silentLogger } from '../../src/telemetry/logger.js';
import { startStack, usePerTest } from '../e2e/harness.js';

/*
 * A sweep whose Redis calls stall (a failover: the connection waits for the new master) writes its due
 * marks seconds after it began. Marked at the sweep's start and judged at the end, every issuer it had
 * just found due read as overdue: a false "Polling is behind" critical after each failover (issue 30's
 * rounds). The marks are the time they are written, so an issuer is due from then.
 */
describe('a sweep stalled between its start and its writes', () => {
  const current = usePerTest();

  it('marks the issuers it finds due at the time of the write: none is overdue at once', async () => {
    const stack = await startStack({
      issuers: 3,
      seed: 41,
      channels: ['slack'],
      config: { poll: { gateInterval: '1s', overdueAfter: '2s' } },
    });
    current.stack = stack;
    // The first reading is the sweep's start; every later one is 10 s on, as after a 10 s stall.
    const start = Date.now();
    let readings = 0;
    const now = () => new Date(readings++ === 0 ? start : start + 10_000);
    const app = await App.open(parseConfig(stringify(stack.configObject), stack.configPath), {
      logger: silentLogger(),
      now,
    });
    current.app = app;
    readings = 0;
    const result = await runSweep(app.ctx);
    // No snapshot yet: every issuer is due (a baseline), and none of them overdue.
    expect(result).toMatchObject({ due: 3 });
    const keys = (await app.ctx.notices.list()).map((n) => n.key);
    expect(keys.filter((key) => key.includes('overdue'))).toEqual([]);
  }, 60_000);
});
