import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccessState, accessFingerprint } from '../../src/budget/access-state.js';
import { isAccessRevokedError } from '../../src/budget/budget-errors.js';
import { createBudgetGuard, type GuardOptions } from '../../src/budget/guard.js';
import { RateBudget } from '../../src/budget/rate-budget.js';
import { NoApiAccessError, UnauthorizedError, type UpstreamError } from '../../src/upstream/errors.js';
import type { RequestInfo, ResponseInfo } from '../../src/upstream/request-info.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

const DAEMON_KEY = accessFingerprint('https://api.example.com', 'daemon-key');
const COLLEAGUE_KEY = accessFingerprint('https://api.example.com', 'colleague-key');
const REQUEST: RequestInfo = { operation: 'issuers', method: 'GET', path: '/issuers', attempt: 1 };

let env: TestRedis;

beforeEach(async () => {
  env = await createTestRedis('guard-cli');
});

afterEach(async () => {
  await env.cleanup();
});

function parts() {
  const budget = new RateBudget(env.redis, {
    ledger: env.prefix,
    perMinute: 100,
    perDay: 1000,
    reserve: 10,
    minuteMs: 60_000,
    dayMs: 86_400_000,
  });
  return { budget, access: new AccessState(env.redis, env.prefix) };
}

/** A guard with the given role and key, counting the callbacks it makes. */
function guard(options: Pick<GuardOptions, 'budget' | 'access' | 'fingerprint'> & Partial<GuardOptions>) {
  const calls = { revoked: 0, restored: 0 };
  const hooks = createBudgetGuard({
    interactive: false,
    rateLimitProbeMs: 1_000,
    onRevoked: () => {
      calls.revoked += 1;
    },
    onRestored: () => {
      calls.restored += 1;
    },
    ...options,
  });
  return { hooks, calls };
}

function refused(error: UpstreamError): ResponseInfo {
  return { ...REQUEST, status: error.status ?? 'network', durationMs: 5, error };
}

const context = (status: number) => ({ ...REQUEST, status });

describe('an interactive 401/403', () => {
  it.each<[string, UpstreamError]>([
    ['401', new UnauthorizedError('Invalid or missing API key.', context(401))],
    ['403', new NoApiAccessError('Subscription does not include API access', context(403))],
  ])('a %s changes no access state: it asks the daemon with that key to check', async (_name, error) => {
    const { budget, access } = parts();
    const cli = guard({ budget, access, fingerprint: DAEMON_KEY, interactive: true });
    await cli.hooks.afterResponse(refused(error));
    expect(await access.get()).toEqual({ state: 'ok' });
    expect(cli.calls.revoked).toBe(0);
    // Only the daemon configured with that key takes the request, and only once.
    expect(await access.takeConfirmation(COLLEAGUE_KEY)).toBe(false);
    expect(await access.takeConfirmation(DAEMON_KEY)).toBe(true);
    expect(await access.takeConfirmation(DAEMON_KEY)).toBe(false);
  });

  it("the daemon's own request refused then stops polling, bound to the daemon's key", async () => {
    const { budget, access } = parts();
    await guard({ budget, access, fingerprint: DAEMON_KEY, interactive: true }).hooks.afterResponse(
      refused(new UnauthorizedError('Invalid or missing API key.', context(401))),
    );
    expect(await access.takeConfirmation(DAEMON_KEY)).toBe(true);
    const probe = guard({ budget, access, fingerprint: DAEMON_KEY, probe: true });
    await probe.hooks.afterResponse(
      refused(new UnauthorizedError('Invalid or missing API key.', context(401))),
    );
    expect(probe.calls.revoked).toBe(1);
    expect(await access.get()).toMatchObject({ state: 'unauthorized', fingerprint: DAEMON_KEY });
  });
});

describe('a stop bound to one key, and a client with another', () => {
  it("an interactive client with another key goes ahead and leaves the daemon's stop alone", async () => {
    const { budget, access } = parts();
    await access.revoke('unauthorized', 'Invalid or missing API key.', DAEMON_KEY);
    const cli = guard({ budget, access, fingerprint: COLLEAGUE_KEY, interactive: true });
    await cli.hooks.beforeRequest(REQUEST);
    expect(await access.get()).toMatchObject({ state: 'unauthorized', fingerprint: DAEMON_KEY });
    expect(cli.calls.restored).toBe(0);
  });

  it('an interactive client with the stopped key is held back', async () => {
    const { budget, access } = parts();
    await access.revoke('unauthorized', 'Invalid or missing API key.', DAEMON_KEY);
    const cli = guard({ budget, access, fingerprint: DAEMON_KEY, interactive: true });
    await expect(cli.hooks.beforeRequest(REQUEST)).rejects.toSatisfy(isAccessRevokedError);
  });

  it('a daemon client configured with a new key clears the stop and says so (the notice clears)', async () => {
    const { budget, access } = parts();
    await access.revoke('unauthorized', 'Invalid or missing API key.', COLLEAGUE_KEY);
    const daemon = guard({ budget, access, fingerprint: DAEMON_KEY });
    await daemon.hooks.beforeRequest(REQUEST);
    expect(await access.get()).toEqual({ state: 'ok' });
    expect(daemon.calls.restored).toBe(1);
  });
});
