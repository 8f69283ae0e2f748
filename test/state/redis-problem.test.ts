import { describe, expect, it } from 'vitest';
import { redisSchema } from '../../src/config/schema/redis.js';
import { conditionOf, redisAddress, redisProblemOf } from '../../src/state/redis-problem.js';
import { TimedOutError } from '../../src/time/within.js';

function coded(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('conditionOf: the Redis condition an error shows', () => {
  it.each([
    {
      name: 'a replica',
      error: new Error("READONLY You can't write against a read only replica."),
      tls: false,
      condition: 'replica',
    },
    {
      name: 'a full Redis',
      error: new Error("OOM command not allowed when used memory > 'maxmemory'. script: 88adc7"),
      tls: false,
      condition: 'oom',
    },
    {
      name: 'an ACL user',
      error: new Error("NOPERM this user has no permissions to run the 'eval' command"),
      tls: false,
      condition: 'noperm',
    },
    {
      name: 'a wrong password',
      error: new Error('WRONGPASS invalid username-password pair or user is disabled.'),
      tls: false,
      condition: 'auth',
    },
    {
      name: 'no password given',
      error: new Error('NOAUTH Authentication required.'),
      tls: false,
      condition: 'auth',
    },
    {
      name: 'a loading node',
      error: new Error('LOADING Redis is loading the dataset in memory'),
      tls: false,
      condition: 'loading',
    },
    {
      name: 'DNS',
      error: coded('getaddrinfo ENOTFOUND nosuch.invalid', 'ENOTFOUND'),
      tls: false,
      condition: 'dns',
    },
    {
      name: 'DNS, temporary',
      error: coded('getaddrinfo EAI_AGAIN redis', 'EAI_AGAIN'),
      tls: false,
      condition: 'dns',
    },
    {
      name: 'refused',
      error: coded('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED'),
      tls: false,
      condition: 'refused',
    },
    { name: 'a timeout', error: coded('connect ETIMEDOUT', 'ETIMEDOUT'), tls: false, condition: 'timeout' },
    {
      name: 'a timeout over TLS',
      error: coded('connect ETIMEDOUT', 'ETIMEDOUT'),
      tls: true,
      condition: 'tls',
    },
    {
      name: 'a bad certificate',
      error: coded('self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT'),
      tls: true,
      condition: 'tls',
    },
    { name: 'a reset over TLS', error: coded('read ECONNRESET', 'ECONNRESET'), tls: true, condition: 'tls' },
    { name: 'another reply', error: new Error('ERR unknown command'), tls: false, condition: undefined },
  ])('$name', ({ error, tls, condition }) => {
    expect(conditionOf(error, tls)).toBe(condition);
  });
});

describe('a connect past its bound', () => {
  it('is a timeout, and over TLS a handshake that never ended', () => {
    const error = new TimedOutError('no Redis answered: no answer within 10000 ms');
    expect([conditionOf(error, false), conditionOf(error, true)]).toEqual(['timeout', 'tls']);
  });
});

describe('redisProblemOf', () => {
  it('names the address without the password, and what to do', () => {
    const config = redisSchema.parse({ url: 'redis://user:s3cret-pw@cache.internal:6380' });
    expect(redisAddress(config)).toBe('cache.internal:6380');
    const problem = redisProblemOf(new Error('WRONGPASS invalid username-password pair'), config);
    expect(problem?.message).toBe(
      'Redis at cache.internal:6380: the credentials were refused: check the user name and password in redis.url / REDIS_URL (or redis.username, redis.password) (WRONGPASS invalid username-password pair)',
    );
    expect(problem?.message).not.toContain('s3cret-pw');
  });
});
