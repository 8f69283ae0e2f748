import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccessState, type AccessStatus, accessFingerprint } from '../../src/budget/access-state.js';
import {
  type AccessRevokedError,
  type BudgetExhaustedError,
  isAccessRevokedError,
  isBudgetExhaustedError,
} from '../../src/budget/budget-errors.js';
import { createBudgetGuard, type GuardOptions } from '../../src/budget/guard.js';
import { type BudgetOptions, RateBudget } from '../../src/budget/rate-budget.js';
import {
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
let clock: number;
const now = () => clock;

beforeEach(async () => {
  env = await createTestRedis('guard');
  clock = Date.UTC(2025, 2, 14, 16, 20, 42, 500);
});

afterEach(async () => {
  await env.cleanup();
});

function parts(budgetOptions: Partial<BudgetOptions> = {}) {
  const budget = new RateBudget(
    env.redis,
    {
      prefix: env.prefix,
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
  const calls = { revoked: [] as AccessStatus[], blocked: [] as [number, string | undefined][], restored: 0 };
  const hooks = createBudgetGuard({
    fingerprint: FINGERPRINT,
    interactive: false,
    now,
    onRevoked: (status) => {
      calls.revoked.push(status);
    },
    onBlocked: (until, window) => {
      calls.blocked.push([until, window]);
    },
    onRestored: () => {
      calls.restored++;
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
    await hooks.beforeRequest(REQUEST);
    await hooks.beforeRequest({ ...REQUEST, attempt: 2 });
    expect((await budget.usage()).minute.used).toBe(2);
  });

  it('throws BudgetExhaustedError with the reason and retry time when no token is left', async () => {
    const { budget, access } = parts({ perDay: 3, reserve: 1 });
    const { hooks } = guard({ budget, access });
    await hooks.beforeRequest(REQUEST);
    await hooks.beforeRequest(REQUEST);
    const error = await rejection(hooks.beforeRequest(REQUEST));
    expect(isBudgetExhaustedError(error)).toBe(true);
    expect(error).toMatchObject({
      reason: 'reserve',
      retryAt: Date.UTC(2025, 2, 15),
    } satisfies Partial<BudgetExhaustedError>);
  });

  it('lets an interactive guard spend the reserve', async () => {
    const { budget, access } = parts({ perDay: 3, reserve: 1 });
    await guard({ budget, access }).hooks.beforeRequest(REQUEST);
    await guard({ budget, access }).hooks.beforeRequest(REQUEST);
    await guard({ budget, access, interactive: true }).hooks.beforeRequest(REQUEST);
    expect((await budget.usage()).day.used).toBe(3);
  });

  it('throws AccessRevokedError without taking a token while access is revoked', async () => {
    const { budget, access } = parts();
    await access.revoke('no-api-access', 'Subscription does not include API access', FINGERPRINT);
    const error = await rejection(guard({ budget, access }).hooks.beforeRequest(REQUEST));
    expect(isAccessRevokedError(error)).toBe(true);
    expect(error).toMatchObject({
      state: 'no-api-access',
      since: clock,
    } satisfies Partial<AccessRevokedError>);
    expect((await budget.usage()).minute.used).toBe(0);
  });

  it('lets the probe through while access is revoked, paying a token', async () => {
    const { budget, access } = parts();
    await access.revoke('unauthorized', 'Invalid or missing API key.', FINGERPRINT);
    await guard({ budget, access, probe: true }).hooks.beforeRequest(REQUEST);
    expect((await budget.usage()).minute.used).toBe(1);
  });
});

describe('guard.afterResponse on 429', () => {
  it.each<[string, RateLimitDetails, number]>([
    ['Retry-After is the truth', { retryAfterMs: 30_000 }, Date.UTC(2025, 2, 14, 16, 21, 12, 500)],
    [
      'Retry-After wins over the named window',
      { retryAfterMs: 5_000, window: 'day' },
      Date.UTC(2025, 2, 14, 16, 20, 47, 500),
    ],
    ['window day blocks until the next UTC day', { window: 'day', limit: 1000 }, Date.UTC(2025, 2, 15)],
    ['window minute blocks until the next minute', { window: 'minute' }, Date.UTC(2025, 2, 14, 16, 21)],
    ['no window and no Retry-After: until the next minute', {}, Date.UTC(2025, 2, 14, 16, 21)],
    ['an unknown window: until the next minute', { window: 'hour' }, Date.UTC(2025, 2, 14, 16, 21)],
  ])('%s', async (_name, details, until) => {
    const { budget, access } = parts();
    const { hooks, calls } = guard({ budget, access });
    await hooks.afterResponse(failed(new RateLimitedError('rate limit reached', context(429), details)));
    expect(calls.blocked).toEqual([[until, details.window]]);
    expect(await budget.usage()).toMatchObject({ blockedUntil: until });
    // Every process now waits: another guard on the same budget is refused until the block ends.
    const error = await rejection(guard({ budget, access, interactive: true }).hooks.beforeRequest(REQUEST));
    expect(error).toMatchObject({ reason: 'blocked', retryAt: until });
    clock = until;
    await guard({ budget, access }).hooks.beforeRequest(REQUEST);
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
      { state, since: clock, message: error.message, fingerprint: FINGERPRINT, lastProbeAt: null },
    ]);
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
    expect(calls).toEqual({ revoked: [], blocked: [], restored: 0 });
  });
});
