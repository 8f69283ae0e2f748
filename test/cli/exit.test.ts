import { describe, expect, it } from 'vitest';
import { RedisUnavailableError } from '../../src/app.js';
import { AccessRevokedError, BudgetExhaustedError } from '../../src/budget/index.js';
import { CliError, describeFailure, EXIT, isCliError } from '../../src/cli/exit.js';
import { ConfigError } from '../../src/config/config-error.js';
import { RateLimitedError, UnauthorizedError, UpstreamNetworkError } from '../../src/upstream/errors.js';
import { NoUpstreamError } from '../../src/upstream/no-upstream-error.js';

const NOW = Date.parse('2026-01-05T10:00:00.000Z');
const issuers = { operation: 'issuers', method: 'GET', path: '/issuers' } as const;

describe('describeFailure', () => {
  it.each([
    {
      name: 'a CliError keeps its message and exit code 1',
      error: new CliError('no such channel "x"'),
      message: 'no such channel "x"',
      exitCode: 1,
    },
    {
      name: 'a CliError with a usage code',
      error: new CliError('pick one of --all or JOB', EXIT.usage),
      message: 'pick one of --all or JOB',
      exitCode: 2,
    },
    {
      name: 'a config error lists its key paths and exits 2',
      error: new ConfigError('shortwatch.yaml', [
        { path: 'poll.gateIntervall', message: 'unknown key' },
        { path: 'upstream.apiKey', message: 'is required' },
      ]),
      message:
        'invalid config shortwatch.yaml:\n  - poll.gateIntervall: unknown key\n  - upstream.apiKey: is required',
      exitCode: 2,
    },
    {
      name: 'Redis down explains how to get one',
      error: new RedisUnavailableError('connect ECONNREFUSED 127.0.0.1:6379'),
      message:
        "Redis does not answer (connect ECONNREFUSED 127.0.0.1:6379). Start one (e.g. `redis-server`, your package manager's redis package, or `docker compose up -d redis`) or point redis.url / REDIS_URL at one.",
      exitCode: 1,
    },
    {
      name: 'an empty budget says when the next token comes and offers --wait',
      error: new BudgetExhaustedError('day', NOW + 29_500),
      message:
        'The shared rate budget has no token now (day); the next one is in 30s (2026-01-05T10:00:29.500Z). Run again with --wait to wait for it.',
      exitCode: 1,
    },
    {
      name: 'a token already due waits 0s, never a negative time',
      error: new BudgetExhaustedError('minute', NOW - 5_000),
      message:
        'The shared rate budget has no token now (minute); the next one is in 0s (2026-01-05T09:59:55.000Z). Run again with --wait to wait for it.',
      exitCode: 1,
    },
    {
      name: 'revoked access points at `shortwatch resume`',
      error: new AccessRevokedError('unauthorized', NOW - 60_000),
      message:
        'Upstream access is stopped (unauthorized) since 2026-01-05T09:59:00.000Z. Fix the key, then run `shortwatch resume`.',
      exitCode: 1,
    },
    {
      name: 'an upstream error names its status and code',
      error: new UnauthorizedError('the API key was rejected', {
        ...issuers,
        status: 401,
        code: 'unauthorized',
      }),
      message: 'Upstream 401 unauthorized: the API key was rejected',
      exitCode: 1,
    },
    {
      name: 'a 429 keeps its status',
      error: new RateLimitedError('rate limit reached', { ...issuers, status: 429 }, { window: 'minute' }),
      message: 'Upstream 429 rate limit reached',
      exitCode: 1,
    },
    {
      name: 'an upstream failure without a response has no status',
      error: new UpstreamNetworkError('GET /issuers: connection refused', issuers),
      message: 'Upstream GET /issuers: connection refused',
      exitCode: 1,
    },
    {
      name: 'asking the upstream of a config without one is a config error on `upstream`: exit 2',
      error: new NoUpstreamError(),
      message:
        'upstream: no upstream API configured: the config has no `upstream` section (this deployment reads the registers of `sources` only)',
      exitCode: 2,
    },
    {
      name: 'any other error: its message, exit 1',
      error: new TypeError('boom'),
      message: 'boom',
      exitCode: 1,
    },
    {
      name: 'a thrown non-error is printed as text',
      error: 'plain text',
      message: 'plain text',
      exitCode: 1,
    },
  ])('$name', ({ error, message, exitCode }) => {
    expect(describeFailure(error, NOW)).toEqual({ message, exitCode });
  });

  it('uses exit codes 0, 1 and 2', () => {
    expect(EXIT).toEqual({ ok: 0, failure: 1, usage: 2 });
  });

  it('recognises its own errors by class, not by message', () => {
    expect(isCliError(new CliError('x'))).toBe(true);
    expect(isCliError(new Error('x'))).toBe(false);
    expect(new CliError('x').exitCode).toBe(EXIT.failure);
  });
});
