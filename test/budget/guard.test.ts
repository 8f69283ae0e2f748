import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccessState, type AccessStatus, accessFingerprint } from '../../src/budget/access-state.js';
import {
  type AccessRevokedError,
  type BudgetExhaustedError,
  isAccessRevokedError,
  isBudgetExhaustedError,
} from '../../src/budget/budget-errors.js';
import { createBudgetGuard, type GuardOptions } from '../../src/budget/guard.js';
import { type BlockResult, type BudgetOptions, RateBudget } from '../../src/budget/rate-budget.js';
import { nextWindowStart } from '../../src/budget/windows.js';
import {
  IssuerNotFoundError,
  NoApiAccessError,
  type RateLimitDetails,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
  type UpstreamError,
  type UpstreamErrorContext,
  UpstreamNetworkError,
} from '../../src/upstream/errors.js';
import type { RequestInfo, ResponseInfo } from '../../src/upstream/request-info.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';
import { intoWindow, redisNow } from './redis-time.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
const FINGERPRINT = accessFingerprint('https://api.example.com', 'key-1');
const REQUEST: RequestInfo = {
  operation: 'positions',
  method: 'GET',
  path: '/issuers/ISS1/positions?status=active',
  attempt: 1,
};

let env: TestRedis;
// The caller's clock: years from Redis', as on a host whose clock is off.
const CALLER_NOW = Date.UTC(2025, 2, 14, 16, 20, 42, 500);
const now = () => CALLER_NOW;
const PROBE_EVERY = 400;

beforeEach(async () => {
  env = await createTestRedis('guard');
});

afterEach(async () => {
  await env.cleanup();
});

function parts(budgetOptions: Partial<BudgetOptions> = {}) {
  const budget = new RateBudget(
    env.redis,
    {
      ledger: env.prefix,
      perMinute: 100,
      perDay: 1000,
      reserve: 0,
      minuteMs: MINUTE,
      dayMs: DAY,
      ...budgetOptions,
    },
    now,
  );
  return { budget, access: new AccessState(env.redis, env.prefix, now) };
}

/** A guard whose callbacks record what they were told. */
function guard(overrides: Partial<GuardOptions> & Pick<GuardOptions, 'budget' | 'access'>) {
  const calls = {
    revoked: [] as AccessStatus[],
    blocked: [] as [number, string | undefined, BlockResult][],
    restored: 0,
    lifted: 0,
  };
  const hooks = createBudgetGuard({
    fingerprint: FINGERPRINT,
    interactive: false,
    rateLimitProbeMs: PROBE_EVERY,
    onRevoked: (status) => {
      calls.revoked.push(status);
    },
    onBlocked: (until, window, block) => {
      calls.blocked.push([until, window, block]);
    },
    onRestored: () => {
      calls.restored++;
    },
    onRateLimitLifted: () => {
      calls.lifted++;
    },
    ...overrides,
  });
  return { hooks, calls };
}

const context = (status?: number): UpstreamErrorContext => ({ ...REQUEST, issuerId: 'ISS1', status });

function failed(error: UpstreamError): ResponseInfo {
  return { ...REQUEST, status: error.status ?? 'network', durationMs: 12, error };
}

const succeeded: ResponseInfo = { ...REQUEST, status: 200, durationMs: 12 };
const rateLimited = (details: RateLimitDetails) =>
  failed(new RateLimitedError('rate limit reached', context(429), details));

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('guard.beforeRequest', () => {
  it('takes one token per attempt', async () => {
    const { budget, access } = parts();
    const { hooks } = guard({ budget, access });
    await intoWindow(env.redis, MINUTE, 0, MINUTE - 2_000);
    await hooks.beforeRequest(REQUEST);
    await hooks.beforeRequest({ ...REQUEST, attempt: 2 });
    expect((await budget.usage()).minute.used).toBe(2);
  });

  it('throws BudgetExhaustedError with the reason and a retry time on its own clock', async () => {
    const { budget, access } = parts({ perDay: 3, reserve: 1 });
    const { hooks } = guard({ budget, access });
    await intoWindow(env.redis, MINUTE, 0, MINUTE - 2_000);
    await hooks.beforeRequest(REQUEST);
    await hooks.beforeRequest(REQUEST);
    const error = await rejection(hooks.beforeRequest(REQUEST));
    expect(isBudgetExhaustedError(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'reserve' } satisfies Partial<BudgetExhaustedError>);
    const usage = await budget.usage();
    // The wait to the end of the day window by Redis' clock, on the caller's (read a moment before usage).
    const wait = (error as BudgetExhaustedError).retryAt - CALLER_NOW;
    expect(wait - (usage.day.resetAt - usage.redisAt)).toBeGreaterThanOrEqual(0);
    expect(wait - (usage.day.resetAt - usage.redisAt)).toBeLessThan(1_000);
  });

  it('lets an interactive guard spend the reserve', async () => {
    const { budget, access } = parts({ perDay: 3, reserve: 1 });
    await intoWindow(env.redis, MINUTE, 0, MINUTE - 2_000);
    await guard({ budget, access }).hooks.beforeRequest(REQUEST);
    await guard({ budget, access }).hooks.beforeRequest(REQUEST);
    await guard({ budget, access, interactive: true }).hooks.beforeRequest(REQUEST);
    expect((await budget.usage()).day.used).toBe(3);
  });

  it('waits out the end of a window, by Redis time, before taking a token in the next one', async () => {
    const minuteMs = 2_000;
    const { budget, access } = parts({ minuteMs });
    const slept: number[] = [];
    const { hooks } = guard({
      budget,
      access,
      sleep: async (ms) => {
        slept.push(ms);
        await sleep(ms);
      },
    });
    // The margin of a 2 s window is 500 ms.
    const before = await intoWindow(env.redis, minuteMs, 1_600, 1_900);
    await hooks.beforeRequest(REQUEST);
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeGreaterThan(0);
    expect(slept[0]).toBeLessThanOrEqual(400);
    const window = await env.redis.hgetall(`${env.prefix}:budget:minute`);
    expect(window).toEqual({ start: String(nextWindowStart(before, minuteMs)), used: '1' });
  });

  it('throws AccessRevokedError without taking a token while access is revoked', async () => {
    const { budget, access } = parts();
    await access.revoke('no-api-access', 'Subscription does not include API access', FINGERPRINT);
    const error = await rejection(guard({ budget, access }).hooks.beforeRequest(REQUEST));
    expect(isAccessRevokedError(error)).toBe(true);
    expect(error).toMatchObject({ state: 'no-api-access' } satisfies Partial<AccessRevokedError>);
    expect((await budget.usage()).minute.used).toBe(0);
  });

  it('lets the probe through while access is revoked, paying a token', async () => {
    const { budget, access } = parts();
    await access.revoke('unauthorized', 'Invalid or missing API key.', FINGERPRINT);
    await intoWindow(env.redis, MINUTE, 0, MINUTE - 2_000);
    await guard({ budget, access, probe: true }).hooks.beforeRequest(REQUEST);
    expect((await budget.usage()).minute.used).toBe(1);
  });
});

describe('guard.afterResponse on 429', () => {
  it.each<[string, RateLimitDetails, number]>([
    ['Retry-After is the truth', { retryAfterMs: 30_000 }, 30_000],
    ['Retry-After wins over the named window', { retryAfterMs: 5_000, window: 'day' }, 5_000],
  ])('%s: every process waits that long, whatever its clock', async (_name, details, waitMs) => {
    const { budget, access } = parts();
    const { hooks, calls } = guard({ budget, access });
    await hooks.afterResponse(rateLimited(details));
    const [[until, window, block] = []] = calls.blocked;
    expect(calls.blocked).toHaveLength(1);
    expect(window).toBe(details.window);
    expect(block).toMatchObject({ changed: true, probing: false });
    expect(until).toBe((block?.redisAt ?? 0) + waitMs);
    expect(await budget.usage()).toMatchObject({ blockedReason: expect.stringMatching(/^rate-limited: /) });
    // Every process now waits: another guard on the same budget is refused until the block ends.
    const error = await rejection(guard({ budget, access, interactive: true }).hooks.beforeRequest(REQUEST));
    expect(error).toMatchObject({ reason: 'blocked' });
    expect((error as BudgetExhaustedError).retryAt - CALLER_NOW).toBeLessThanOrEqual(waitMs);
  });

  it('a minute window without Retry-After blocks to the end of the minute by Redis time', async () => {
    const { budget, access } = parts();
    const { hooks, calls } = guard({ budget, access });
    await hooks.afterResponse(rateLimited({ window: 'minute' }));
    const [[until, , block] = []] = calls.blocked;
    expect(block).toMatchObject({ changed: true, probing: false });
    if (until === undefined || block === undefined) throw new Error('no block');
    expect(until).toBe(nextWindowStart(block.redisAt, MINUTE));
    expect(await budget.usage()).toMatchObject({
      probing: null,
      blockedReason: expect.stringMatching(/^rate-limited-minute: /),
    });
  });

  it.each<[string, RateLimitDetails, string]>([
    ['the day window', { window: 'day', limit: 1000 }, 'day'],
    ['no window', {}, 'unknown'],
    ['a window we do not know', { window: 'hour' }, 'unknown'],
  ])(
    '%s without Retry-After: no block to our midnight, one probe an interval',
    async (_name, details, named) => {
      const { budget, access } = parts({ minuteMs: 2_000 });
      const { hooks, calls } = guard({ budget, access });
      // Far from our own window ends, so that the interval sets the first probe.
      await intoWindow(env.redis, 2_000, 100, 1_000);
      await hooks.afterResponse(rateLimited(details));
      const [[until, , block] = []] = calls.blocked;
      expect(block).toMatchObject({ changed: true, probing: true });
      if (until === undefined || block === undefined) throw new Error('no block');
      expect(until).toBe(block.redisAt + PROBE_EVERY);
      const usage = await budget.usage();
      expect(usage.probing).toMatchObject({ window: named, everyMs: PROBE_EVERY });
      expect(usage.blockedReason).toMatch(new RegExp(`^rate-limited-${named}-probing: `));
      expect(await rejection(guard({ budget, access }).hooks.beforeRequest(REQUEST))).toMatchObject({
        reason: 'blocked',
      });
    },
  );

  it("a probe's answer ends probing; an answer to a request sent before the 429 does not", async () => {
    const { budget, access } = parts();
    const early = guard({ budget, access });
    const prober = guard({ budget, access });
    await early.hooks.beforeRequest(REQUEST);
    await prober.hooks.afterResponse(rateLimited({ window: 'day' }));
    await early.hooks.afterResponse(succeeded);
    expect((await budget.usage()).probing).not.toBeNull();

    await sleep(PROBE_EVERY);
    await prober.hooks.beforeRequest(REQUEST);
    // Only one probe an interval, from any process.
    expect(await rejection(early.hooks.beforeRequest(REQUEST))).toMatchObject({ reason: 'blocked' });
    await prober.hooks.afterResponse(succeeded);
    expect(prober.calls.lifted).toBe(1);
    expect(await budget.usage()).toMatchObject({ probing: null, blockedUntil: null, blockedReason: null });
    await early.hooks.beforeRequest(REQUEST);
  });

  it.each<[string, boolean, ResponseInfo]>([
    [
      'a 404 (the upstream answers)',
      true,
      failed(new IssuerNotFoundError('Issuer not found.', context(404))),
    ],
    ['a 500', false, failed(new ServerError('server error', context(500)))],
    ['a timeout', false, { ...REQUEST, status: 'timeout', durationMs: 2_000 }],
  ])('a probe answered by %s ends probing: %s', async (_name, lifted, answer) => {
    const { budget, access } = parts();
    const { hooks, calls } = guard({ budget, access });
    await hooks.afterResponse(rateLimited({ window: 'day' }));
    await sleep(PROBE_EVERY);
    await hooks.beforeRequest(REQUEST);
    await hooks.afterResponse(answer);
    expect(calls.lifted).toBe(lifted ? 1 : 0);
    expect((await budget.usage()).probing === null).toBe(lifted);
  });

  it("the probe's own 429 waits a whole interval for the next probe", async () => {
    const { budget, access } = parts();
    const { hooks, calls } = guard({ budget, access });
    await hooks.afterResponse(rateLimited({ window: 'day' }));
    await sleep(PROBE_EVERY);
    await hooks.beforeRequest(REQUEST);
    const claimed = await redisNow(env.redis);
    await hooks.afterResponse(rateLimited({ window: 'day' }));
    const [, [until, , block] = []] = calls.blocked;
    if (until === undefined || block === undefined) throw new Error('no second block');
    expect(block).toMatchObject({ changed: false, probing: true });
    expect(until).toBeGreaterThanOrEqual(claimed - 5 + PROBE_EVERY);
    expect(await rejection(hooks.beforeRequest(REQUEST))).toMatchObject({ reason: 'blocked' });
    expect(calls.lifted).toBe(0);
  });
});

describe('guard.afterResponse on 401 and 403', () => {
  it.each<[string, UpstreamError, AccessStatus['state']]>([
    [
      '401 revokes as unauthorized',
      new UnauthorizedError('Invalid or missing API key.', context(401)),
      'unauthorized',
    ],
    [
      '403 revokes as no-api-access',
      new NoApiAccessError('Subscription does not include API access', context(403)),
      'no-api-access',
    ],
  ])('%s and raises one notice across processes', async (_name, error, state) => {
    const { budget } = parts();
    const guards = Array.from({ length: 4 }, () =>
      guard({ budget, access: new AccessState(env.connect(), env.prefix, now) }),
    );
    await Promise.all(guards.map(({ hooks }) => hooks.afterResponse(failed(error))));
    const notices = guards.flatMap(({ calls }) => calls.revoked);
    expect(notices).toEqual([
      {
        state,
        since: expect.any(Number),
        message: error.message,
        fingerprint: FINGERPRINT,
        lastProbeAt: null,
      },
    ]);
    // Recorded by Redis' clock a moment ago, whatever the caller's clock says.
    const since = notices[0]?.state === 'ok' ? undefined : notices[0]?.since;
    const redisAt = await redisNow(env.redis);
    expect(redisAt - (since ?? 0)).toBeGreaterThanOrEqual(0);
    expect(redisAt - (since ?? 0)).toBeLessThan(1_000);
    const blocked = await rejection(guards[0]!.hooks.beforeRequest(REQUEST));
    expect(blocked).toMatchObject({ state });
  });

  it('a succeeding probe restores access; an ordinary 2xx does not', async () => {
    const { budget, access } = parts();
    await access.revoke('unauthorized', 'Invalid or missing API key.', FINGERPRINT);
    const ordinary = guard({ budget, access });
    await ordinary.hooks.afterResponse(succeeded);
    expect((await access.get()).state).toBe('unauthorized');

    const probe = guard({ budget, access, probe: true });
    await probe.hooks.afterResponse({ ...succeeded, operation: 'issuers', path: '/issuers' });
    expect(probe.calls.restored).toBe(1);
    expect(await access.get()).toEqual({ state: 'ok' });
    await ordinary.hooks.beforeRequest(REQUEST);
  });

  it('a failing probe keeps access revoked and raises no second notice', async () => {
    const { budget, access } = parts();
    const probe = guard({ budget, access, probe: true });
    await probe.hooks.afterResponse(
      failed(new UnauthorizedError('Invalid or missing API key.', context(401))),
    );
    await probe.hooks.afterResponse(
      failed(new UnauthorizedError('Invalid or missing API key.', context(401))),
    );
    expect(probe.calls.revoked).toHaveLength(1);
    expect(probe.calls.restored).toBe(0);
    expect((await access.get()).state).toBe('unauthorized');
  });
});

describe('guard.afterResponse on a 401 answering the rate-limit probe', () => {
  it('ends probing (the upstream answered) and revokes access', async () => {
    const { budget, access } = parts();
    const { hooks, calls } = guard({ budget, access });
    await hooks.afterResponse(rateLimited({ window: 'day' }));
    await sleep(PROBE_EVERY);
    await hooks.beforeRequest(REQUEST);
    await hooks.afterResponse(failed(new UnauthorizedError('Invalid or missing API key.', context(401))));
    expect(calls.lifted).toBe(1);
    expect(calls.revoked).toHaveLength(1);
    expect((await budget.usage()).probing).toBeNull();
  });
});

describe('guard.afterResponse on other outcomes', () => {
  it.each<[string, ResponseInfo]>([
    ['a 500', failed(new ServerError('server error', context(500)))],
    ['a network error', failed(new UpstreamNetworkError('connection refused', context()))],
    ['a 200', succeeded],
  ])('%s changes neither the budget nor access', async (_name, info) => {
    const { budget, access } = parts();
    const { hooks, calls } = guard({ budget, access });
    await hooks.afterResponse(info);
    expect(await budget.usage()).toMatchObject({ blockedUntil: null });
    expect(await access.get()).toEqual({ state: 'ok' });
    expect(calls).toEqual({ revoked: [], blocked: [], restored: 0, lifted: 0 });
  });
});
