import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import type { Settings } from '../../src/jobs/context.js';
import { DirectoryFollower } from '../../src/jobs/directory-follower.js';
import { planFor } from '../../src/jobs/plan-for.js';
import { IssuerDirectory } from '../../src/state/directory.js';
import { Notices } from '../../src/state/notices.js';
import { silentLogger } from '../../src/telemetry/logger.js';
import type { Issuer } from '../../src/upstream/schemas.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

// Under `watchlist: all` every process's watched set and plan follow the issuer list the sweeps save
// (real Redis: the directory and the notices as the daemon keeps them).

const issuers = (count: number): Issuer[] =>
  Array.from({ length: count }, (_, i) => ({ svc_issuer_id: `ISS-${i}`, name: `Issuer ${i}` }));

function settingsFor(yaml: string): Settings {
  const config = parseConfig(
    `upstream: { baseUrl: "https://api.example.com", apiKey: key-1 }\n${yaml}\n`,
    'shortwatch.yaml',
    {},
    () => '',
  );
  return { config, plan: planFor(config), watched: [], senders: new Map(), fingerprint: 'fp' };
}

describe('DirectoryFollower', () => {
  let t: TestRedis;
  let directory: IssuerDirectory;
  let notices: Notices;
  let follower: DirectoryFollower;
  let at = Date.parse('2026-01-05T08:00:00Z');
  /** Saves a list as a sweep does, each at a later instant (its fetchedAt is its identity). */
  const save = (list: Issuer[]) => {
    at += 1_000;
    return directory.save(list, null, new Date(at));
  };

  beforeEach(async () => {
    t = await createTestRedis('follower');
    directory = new IssuerDirectory(t.redis, t.prefix);
    const logger = silentLogger();
    notices = new Notices(t.redis, t.prefix, {
      logger,
      now: () => new Date(at),
      opsChannel: () => undefined,
      channelsFor: () => [],
    });
    follower = new DirectoryFollower({ directory, logger, notices });
  });
  afterEach(async () => t.cleanup());

  it('follows each list saved, and plans again for a new size', async () => {
    let settings = settingsFor('watchlist: all');
    expect(await follower.follow(settings, { report: true })).toBeUndefined();

    await save(issuers(3));
    const first = await follower.follow(settings, { report: true });
    expect(first?.watched.map((w) => w.id)).toEqual(['ISS-0', 'ISS-1', 'ISS-2']);
    expect(first?.plan.summary.join(' ')).toContain('across 3 issuers');
    settings = { ...settings, ...first };
    // Nothing saved since: nothing to do.
    expect(await follower.follow(settings, { report: true })).toBeUndefined();

    // One leaves as another joins: the same size keeps the plan, the watched set moves.
    await save([...issuers(3).slice(1), { svc_issuer_id: 'ISS-9', name: 'Joiner plc' }]);
    const moved = await follower.follow(settings, { report: true });
    expect(moved?.watched.map((w) => w.id)).toEqual(['ISS-1', 'ISS-2', 'ISS-9']);
    expect(moved?.plan).toBe(settings.plan);

    await save(issuers(5));
    const grown = await follower.follow(settings, { report: true });
    expect(grown?.plan.summary.join(' ')).toContain('across 5 issuers');
  });

  it('keeps the plan in force and says so when the gate is off and the list outgrows the budget', async () => {
    const settings = settingsFor(
      'watchlist: all\npoll: { gate: false }\nbudget: { perDay: 20, reserve: 10 }',
    );
    await save(issuers(4));
    const fits = await follower.follow(settings, { report: true });
    expect(fits?.plan.requestsPerDay).toBeLessThanOrEqual(10);
    const running = { ...settings, ...fits };

    await save(issuers(11));
    const outgrown = await follower.follow(running, { report: true });
    expect(outgrown?.watched).toHaveLength(11);
    expect(outgrown?.plan).toBe(running.plan);
    const [notice] = await notices.list();
    expect(notice?.key).toBe('watchlist-plan');
    expect(notice?.text).toContain('is all, the whole directory of 11 issuers');

    await save(issuers(6));
    await follower.follow(running, { report: true });
    expect(await notices.list()).toEqual([]);
  });

  it('leaves a watchlist of entries alone', async () => {
    await save(issuers(3));
    expect(
      await follower.follow(settingsFor('watchlist: [{ id: ISS-1 }]'), { report: true }),
    ).toBeUndefined();
  });
});
