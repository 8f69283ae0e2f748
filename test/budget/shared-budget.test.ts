import { afterEach, describe, expect, it } from 'vitest';
import {
  BUDGET_SHARED_NOTICE,
  reportSharedBudget,
  sharedBudgetText,
} from '../../src/budget/shared-budget.js';
import { Notices } from '../../src/state/notices.js';
import { silentLogger } from '../../src/telemetry/logger.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

describe('the budget-shared notice', () => {
  let t: TestRedis | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it('names one other deployment, or several in order', () => {
    expect(sharedBudgetText(['staging'])).toMatch(/^Deployment `staging` polls with the same API key/);
    expect(sharedBudgetText(['qa', 'staging'])).toMatch(
      /^Deployments `qa` and `staging` poll with the same API key/,
    );
    expect(sharedBudgetText(['a', 'b', 'c'])).toMatch(/^Deployments `a`, `b` and `c` poll /);
  });

  it('is raised once, raised again when who shares changes, and cleared when nobody does', async () => {
    t = await createTestRedis('shared-budget');
    let at = Date.parse('2026-11-24T08:00:00Z');
    const notices = new Notices(t.redis, t.prefix, {
      logger: silentLogger(),
      now: () => new Date(at),
      opsChannel: () => undefined,
      channelsFor: () => [],
    });
    const active = async () => (await notices.list()).find((n) => n.key === BUDGET_SHARED_NOTICE);

    await reportSharedBudget(notices, []);
    expect(await active()).toBeUndefined();
    await reportSharedBudget(notices, ['staging']);
    const first = await active();
    expect(first?.text).toBe(sharedBudgetText(['staging']));

    at += 10_000;
    await reportSharedBudget(notices, ['staging']);
    // The same deployments: the notice stands as raised (no second message).
    expect(await active()).toEqual(first);

    at += 10_000;
    await reportSharedBudget(notices, ['qa', 'staging']);
    const second = await active();
    expect(second?.text).toBe(sharedBudgetText(['qa', 'staging']));
    expect(second?.since).not.toBe(first?.since);

    await reportSharedBudget(notices, []);
    expect(await active()).toBeUndefined();
  });
});
