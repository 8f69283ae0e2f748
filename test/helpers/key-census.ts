import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Redis } from 'ioredis';

/**
 * Issue 31: a suite run leaves no key behind. Every prefix a test takes (createTestRedis) is written to a
 * file of this run's; after the run, Vitest's global teardown scans the shared Redis and fails the run
 * when a key is left under one of them, or when a key without expiry appeared that no prefix of any test
 * form names (a test that wrote outside its prefix). Keys with an expiry (the budget's ledger, a lease)
 * end by themselves; keys of another run on the same Redis (a developer's second terminal) carry that
 * run's prefixes, of the test form, and are not this run's to judge.
 */
/**
 * The run's list of prefixes, at a fixed place: Vitest's workers do not see an environment variable a
 * global setup sets. It exists only during a suite run, so a script or a bench using the helpers writes
 * nothing. (Two suite runs in one checkout already share `.test-build/`: run one at a time.)
 */
const PREFIX_LOG = new URL('../../.test-census', import.meta.url).pathname;

/** What the tests' prefixes look like: `label-` and twelve hex digits (helpers/redis.ts). */
const TEST_PREFIX = /^\{?[a-z0-9-]+-[0-9a-f]{8}-[0-9a-f]{3}/u;

/** Records a test's prefix for the census; a no-op outside a suite run (a script, a bench). */
export function recordPrefix(prefix: string): void {
  if (existsSync(PREFIX_LOG)) appendFileSync(PREFIX_LOG, `${prefix}\n`);
}

/** Keys without an expiry, by SCAN (never KEYS), with TTL read in pipelines of 500. */
async function keysWithoutExpiry(redis: Redis): Promise<Set<string>> {
  const found = new Set<string>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'COUNT', 1000);
    cursor = next;
    if (keys.length === 0) continue;
    const ttls = await redis.pipeline(keys.map((key) => ['pttl', key])).exec();
    keys.forEach((key, i) => {
      if (ttls?.[i]?.[1] === -1) found.add(key);
    });
  } while (cursor !== '0');
  return found;
}

/** The census's verdict: the keys left under this run's prefixes, and the unexplained ones. */
export function leftBehind(
  before: ReadonlySet<string>,
  after: ReadonlySet<string>,
  prefixes: readonly string[],
): { underPrefixes: string[]; outsidePrefixes: string[] } {
  const ours = (key: string) => prefixes.some((p) => key.startsWith(p) || key.startsWith(`{${p}}`));
  const fresh = [...after].filter((key) => !before.has(key));
  return {
    underPrefixes: fresh.filter(ours).sort(),
    outsidePrefixes: fresh.filter((key) => !ours(key) && !TEST_PREFIX.test(key)).sort(),
  };
}

/**
 * The census's state in Vitest's main process: a root global setup runs once per project (unit, e2e,
 * slow), so the first setup takes the count before the run and the last teardown judges it.
 */
interface Census {
  users: number;
  before?: Promise<Set<string>>;
}
const CENSUS_KEY = Symbol.for('shortwatch.keyCensus');
const state = globalThis as { [CENSUS_KEY]?: Census };

/** Vitest's global setup: the keys before the run; its teardown judges the keys after it. */
export default async function keyCensus(): Promise<() => Promise<void>> {
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  state[CENSUS_KEY] ??= { users: 0 };
  const census = state[CENSUS_KEY];
  census.users++;
  if (census.before === undefined) {
    writeFileSync(PREFIX_LOG, '');
    census.before = withRedis(url, keysWithoutExpiry);
  }
  const before = await census.before;
  return async () => {
    census.users--;
    if (census.users > 0) return;
    state[CENSUS_KEY] = undefined;
    try {
      const prefixes = [...new Set(readFileSync(PREFIX_LOG, 'utf8').split('\n').filter(Boolean))];
      const after = await withRedis(url, keysWithoutExpiry);
      const { underPrefixes, outsidePrefixes } = leftBehind(before, after, prefixes);
      const lines = [
        ...underPrefixes.slice(0, 20).map((key) => `  left under a test's prefix: ${key}`),
        ...outsidePrefixes.slice(0, 20).map((key) => `  left outside any test prefix: ${key}`),
      ];
      if (lines.length === 0) return;
      // Vitest prints a teardown's error but keeps the run's exit code: set it, or CI passes a leak.
      process.exitCode = 1;
      throw new Error(
        `the suite left ${underPrefixes.length + outsidePrefixes.length} keys without expiry in ${url} ` +
          `(${prefixes.length} test prefixes checked):\n${lines.join('\n')}`,
      );
    } finally {
      rmSync(PREFIX_LOG, { force: true });
    }
  };
}

/** Runs `work` on a connection of its own, closed after. */
async function withRedis<T>(url: string, work: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    return await work(redis);
  } finally {
    redis.disconnect();
  }
}
