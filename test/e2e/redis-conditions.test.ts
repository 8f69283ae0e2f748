import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runMain } from '../cli/run-main.js';
import { type PrivateRedis, REDIS_SERVER, startPrivateRedis } from '../helpers/redis-server.js';
import { freePort } from './harness.js';

/*
 * Every Redis condition an operator meets at start, each on a private redis-server of its own (never the
 * shared one): `check` and `start` name it with the address and what to do, and exit 1, each within its
 * bounded waits (a connect within 10 s, a probe within 5 s) instead of hanging. docs/operations.md,
 * "Bad settings", is the table of these rows.
 */

const ACL_USER = 'reader';
const ACL_PASSWORD = 'reader-pass-2f9a';
const ADMIN_PASSWORD = 'admin-pass-77c1';

interface Row {
  name: string;
  url: () => string;
  says: RegExp;
}

describe.skipIf(!REDIS_SERVER)('a Redis that cannot serve a deployment, named by check and start', () => {
  let master: PrivateRedis;
  let replica: PrivateRedis;
  let full: PrivateRedis;
  let guarded: PrivateRedis;
  let dir: string;
  let closedPort: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shortwatch-conditions-'));
    closedPort = await freePort();
    [master, full, guarded] = await Promise.all([
      startPrivateRedis(),
      startPrivateRedis(['--maxmemory', '1mb', '--maxmemory-policy', 'noeviction']),
      startPrivateRedis(['--requirepass', ADMIN_PASSWORD], ADMIN_PASSWORD),
    ]);
    replica = await startPrivateRedis(['--replicaof', '127.0.0.1', String(master.port)]);
    const admin = new Redis(guarded.url, { maxRetriesPerRequest: 0 });
    await admin.call(
      'ACL',
      'SETUSER',
      ACL_USER,
      'on',
      `>${ACL_PASSWORD}`,
      '~*',
      '+@read',
      '+@connection',
      '+info',
    );
    admin.disconnect();
    // Fill the 1 MB Redis until a write is refused: it is at its maxmemory, with nothing to evict.
    const filler = new Redis(full.url, { maxRetriesPerRequest: 0 });
    const ballast = 'x'.repeat(4_096);
    for (let i = 0; ; i += 1) {
      const refused = await filler.set(`ballast:${i}`, ballast).then(
        () => false,
        () => true,
      );
      if (refused) break;
    }
    filler.disconnect();
  }, 60_000);

  afterAll(async () => {
    await Promise.all([replica, master, full, guarded].map((server) => server?.stop()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const rows: Row[] = [
    {
      name: 'a replica (READONLY)',
      url: () => replica.url,
      says: /Redis at 127\.0\.0\.1:\d+: it is a read-only replica .*point redis\.url at the master/,
    },
    {
      name: 'at maxmemory with noeviction (OOM)',
      url: () => full.url,
      says: /Redis at 127\.0\.0\.1:\d+: it is at its maxmemory with maxmemory-policy noeviction.*raise maxmemory/,
    },
    {
      name: 'an ACL user without write rights (NOPERM)',
      url: () => `redis://${ACL_USER}:${ACL_PASSWORD}@127.0.0.1:${guarded.port}`,
      says: /Redis at 127\.0\.0\.1:\d+: the ACL user may not run a command shortwatch needs.*NOPERM/,
    },
    {
      name: 'a wrong password (WRONGPASS)',
      url: () => `redis://:bad-pass-91e3@127.0.0.1:${guarded.port}`,
      says: /Redis at 127\.0\.0\.1:\d+: the credentials were refused: check the user name and password/,
    },
    {
      name: 'a host that does not resolve (DNS)',
      url: () => 'redis://shortwatch-no-such-host.invalid:6379',
      says: /Redis at shortwatch-no-such-host\.invalid:6379: the host name does not resolve/,
    },
    {
      name: 'nothing listening (ECONNREFUSED)',
      url: () => `redis://127.0.0.1:${closedPort}`,
      says: /Redis at 127\.0\.0\.1:\d+: nothing listens there: start one/,
    },
    {
      name: 'TLS to a server without it',
      url: () => `rediss://127.0.0.1:${master.port}`,
      says: /Redis at 127\.0\.0\.1:\d+: the TLS handshake failed or never ended/,
    },
  ];

  it.each(rows)(
    '$name: check and start name it, the address and the cure, and exit 1',
    async (row) => {
      const configPath = join(dir, `${row.name.replace(/\W+/g, '-')}.yaml`);
      const config = {
        upstream: { baseUrl: 'http://127.0.0.1:9', apiKey: 'unused-key' },
        redis: { url: row.url(), prefix: `sw-conditions-${process.pid}` },
        watchlist: [{ id: 'ISS-0001' }],
        channels: [{ name: 'console', kind: 'console' }],
        log: { level: 'warn', format: 'json' },
      };
      writeFileSync(configPath, stringify(config));
      const check = await runMain(['-c', configPath, 'check', '--offline']);
      const start = await runMain(['-c', configPath, 'start']);
      expect(check.code, `${check.stdout}${check.stderr}`).toBe(1);
      expect(`${check.stdout}${check.stderr}`).toMatch(row.says);
      expect(start.code, `${start.stdout}${start.stderr}`).toBe(1);
      expect(start.stderr).toMatch(row.says);
      // Named, never as a raw reply with a script's source, and never with a password.
      for (const output of [check, start].flatMap((run) => [run.stdout, run.stderr])) {
        expect(output).not.toContain(ACL_PASSWORD);
        expect(output).not.toContain('bad-pass-91e3');
        expect(output).not.toMatch(/redis\.call\('SET'/);
      }
    },
    60_000,
  );
});
