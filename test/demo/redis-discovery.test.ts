import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireRedis } from '../../src/demo/acquire-redis.js';
import { deleteKeysUnder } from '../../src/demo/delete-prefix.js';
import { isRedisNotFoundError, RedisNotFoundError } from '../../src/demo/redis-not-found-error.js';
import { displayRedisUrl, probeRedis } from '../../src/demo/redis-probe.js';
import { findOnPath, freePort, startRedisServer } from '../../src/demo/redis-server-child.js';
import { countKeysUnder } from '../helpers/count-keys.js';
import { createTestRedis, TEST_REDIS_URL } from '../helpers/redis.js';

const redisServer = findOnPath('redis-server', process.env.PATH);

describe('finding a program on PATH', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'shortwatch-demo-path-'));
    writeFileSync(join(dir, 'runnable'), '#!/bin/sh\n');
    chmodSync(join(dir, 'runnable'), 0o755);
    writeFileSync(join(dir, 'plain'), 'not executable');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['an executable file', 'runnable', true],
    ['a file without the execute bit', 'plain', false],
    ['a missing file', 'absent', false],
  ])('%s', (_name, file, found) => {
    const path = ['', '/nonexistent', dir].join(delimiter);
    expect(findOnPath(file, path)).toBe(found ? join(dir, file) : undefined);
  });

  it('finds nothing without a PATH', () => {
    expect(findOnPath('runnable', undefined)).toBeUndefined();
  });
});

describe('probing Redis', () => {
  it.each([
    ['credentials are left out', 'redis://user:secret@example.test:6380/2', 'redis://example.test:6380/2'],
    ['a plain URL is kept', 'redis://127.0.0.1:6379', 'redis://127.0.0.1:6379'],
    ['an unreadable URL is not echoed', 'not a url secret', '(an unreadable REDIS_URL)'],
  ])('displayRedisUrl: %s', (_name, url, shown) => {
    expect(displayRedisUrl(url)).toBe(shown);
  });

  it('answers undefined for a live Redis and says why for a dead port', async () => {
    expect(await probeRedis(TEST_REDIS_URL)).toBeUndefined();
    const port = await freePort();
    expect(await probeRedis(`redis://127.0.0.1:${port}`, 500)).toMatch(/ECONNREFUSED/);
  });
});

describe('acquiring the demo Redis', () => {
  it('uses REDIS_URL when it answers, starting nothing', async () => {
    const redis = await acquireRedis({ REDIS_URL: TEST_REDIS_URL, PATH: '' });
    expect(redis.child).toBeUndefined();
    expect(redis.url).toBe(TEST_REDIS_URL);
  });

  it('explains how to get Redis when nothing answers and no redis-server is on PATH', async () => {
    const port = await freePort();
    const failure = await acquireRedis({ REDIS_URL: `redis://127.0.0.1:${port}`, PATH: '/nonexistent' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isRedisNotFoundError(failure)).toBe(true);
    expect(failure instanceof RedisNotFoundError && failure.tried).toBe(`redis://127.0.0.1:${port}`);
    expect(String(failure)).toContain('docker compose up -d redis');
    expect(String(failure)).toContain('package manager');
  });

  it.skipIf(!redisServer)(
    'starts redis-server from PATH on a free port when nothing answers, and stops it',
    async () => {
      const port = await freePort();
      const redis = await acquireRedis({
        REDIS_URL: `redis://127.0.0.1:${port}`,
        PATH: dirname(redisServer ?? ''),
      });
      try {
        expect(redis.child).toBeDefined();
        expect(redis.note).toContain('started');
        expect(await probeRedis(redis.url)).toBeUndefined();
      } finally {
        await redis.child?.stop();
      }
      expect(await probeRedis(redis.url, 500)).toBeDefined();
    },
  );

  it.skipIf(!redisServer)('reports a redis-server that cannot start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shortwatch-demo-bad-'));
    const fake = join(dir, 'redis-server');
    writeFileSync(fake, '#!/bin/sh\necho "bad config" ; exit 3\n');
    chmodSync(fake, 0o755);
    try {
      await expect(startRedisServer(fake, 3_000)).rejects.toThrow(/exited \(3\) bad config/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('removing the demo keys', () => {
  it('deletes every key under "{<prefix>}:" and nothing that merely starts alike', async () => {
    const test = await createTestRedis('demo-keys');
    const root = `{${test.prefix}}`;
    try {
      await test.redis.mset(`${root}:a`, '1', `${root}:q:b`, '2', `{${test.prefix}x}:c`, '3');
      expect(await countKeysUnder(test.redis, test.prefix)).toBe(2);
      expect(await deleteKeysUnder(test.redis, test.prefix)).toBe(2);
      expect(await countKeysUnder(test.redis, test.prefix)).toBe(0);
      expect(await test.redis.get(`{${test.prefix}x}:c`)).toBe('3');
    } finally {
      // The look-alike key is outside the prefix the cleanup deletes: this test's own, deleted here.
      await test.redis.del(`{${test.prefix}x}:c`);
      await test.cleanup();
    }
  });
});
