import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisHealth } from '../../src/ops/redis-health.js';
import {
  isConnectionError,
  redactUrlCredentials,
  redisErrorFields,
} from '../../src/state/redis-error-fields.js';
import { waitFor } from '../e2e/harness.js';
import { captureLog, LEVEL } from '../helpers/log-capture.js';
import { type PrivateRedis, REDIS_SERVER, startPrivateRedis } from '../helpers/redis-server.js';

const LOST = 'redis connection lost; retrying (logged once until it is back)';
const RECOVERED = 'redis connection recovered';

describe('redisErrorFields', () => {
  it.each([
    [
      'a connection refusal keeps its type, code and message',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6390'), { code: 'ECONNREFUSED' }),
      { type: 'Error', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:6390' },
    ],
    [
      'a password in a redis URL is redacted',
      new TypeError('cannot reach redis://admin:hunter2@cache.example:6379/0 now'),
      { type: 'TypeError', message: 'cannot reach redis://[redacted]@cache.example:6379/0 now' },
    ],
    [
      'only the first line of a multi-line message is kept',
      new Error('first line\n    at Socket.<anonymous> (node:net:1:1)'),
      { type: 'Error', message: 'first line' },
    ],
    ['a thrown string', 'plain text', { type: 'string', message: 'plain text' }],
  ])('%s', (_name, error, fields) => {
    expect(redisErrorFields(error)).toEqual(fields);
  });

  it.each([
    ['rediss://:pw@h:1 and redis://u:p@h', 'rediss://[redacted]@h:1 and redis://[redacted]@h'],
    ['redis://127.0.0.1:6379 has none', 'redis://127.0.0.1:6379 has none'],
    ['an e-mail a@b.test is not a URL', 'an e-mail a@b.test is not a URL'],
  ])('redactUrlCredentials(%j)', (text, redacted) => {
    expect(redactUrlCredentials(text)).toBe(redacted);
  });
});

describe('isConnectionError', () => {
  it.each([
    [
      'ECONNREFUSED',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
      true,
    ],
    ['ECONNRESET', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), true],
    ['"Connection is closed."', new Error('Connection is closed.'), true],
    [
      'MaxRetriesPerRequestError',
      Object.assign(new Error('Reached the max retries'), { name: 'MaxRetriesPerRequestError' }),
      true,
    ],
    ['a script error', new Error('ERR Error running script'), false],
    ['a missing job lock', new Error('Missing lock for job 42. moveToFinished'), false],
    ['not an Error', 'ECONNREFUSED', false],
  ])('%s → %s', (_name, error, expected) => {
    expect(isConnectionError(error)).toBe(expected);
  });
});

describe.skipIf(!REDIS_SERVER)('RedisHealth with a redis-server that goes away and comes back', () => {
  let server: PrivateRedis | undefined;
  const clients: Redis[] = [];

  afterEach(async () => {
    for (const client of clients.splice(0)) client.disconnect();
    await server?.stop();
    server = undefined;
  });

  function connect(url: string, errors: { count: number }): Redis {
    // Fast retries: many errors per outage, which must still give one warning.
    const client = new Redis(url, { retryStrategy: () => 50, maxRetriesPerRequest: null });
    client.on('error', () => {
      errors.count += 1;
    });
    clients.push(client);
    return client;
  }

  it('logs one warning per outage and one recovery, for any number of connections and retries', async () => {
    const password = 'redis-pass-77e1';
    server = await startPrivateRedis(['--requirepass', password], password);
    const running = server;
    const log = captureLog([]);
    const health = new RedisHealth(log.logger);
    const errors = { count: 0 };
    const a = connect(running.url, errors);
    const b = connect(running.url, errors);
    health.watchClient('a', a);
    health.watchClient('b', b);
    await waitFor('both connected', () => a.status === 'ready' && b.status === 'ready');

    for (const outage of [1, 2]) {
      const before = errors.count;
      await running.stop();
      await waitFor('the warning', () => log.withMessage(LOST).length === outage);
      await waitFor('retries failing on both connections', () => errors.count - before >= 10);
      expect(log.withMessage(LOST)).toHaveLength(outage);
      await running.start();
      await waitFor('the recovery', () => log.withMessage(RECOVERED).length === outage);
    }

    const lost = log.withMessage(LOST);
    expect(lost.map((line) => line.level)).toEqual([LEVEL.warn, LEVEL.warn]);
    expect(lost[0]).toMatchObject({
      connection: expect.stringMatching(/^[ab]$/),
      error: { type: 'Error', code: 'ECONNREFUSED' },
    });
    expect(JSON.stringify(lost)).not.toContain('stack');
    const recovered = log.withMessage(RECOVERED);
    expect(recovered.map((line) => line.level)).toEqual([LEVEL.info, LEVEL.info]);
    for (const line of recovered) expect(line.errors).toBeGreaterThanOrEqual(10);
    expect(log.text()).not.toContain(password);
  });
});
