import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../src/channels/types.js';
import { Durability, type DurabilitySettings, NOT_DURABLE_NOTICE } from '../../src/state/durability.js';
import { stateKeys } from '../../src/state/keys.js';
import { Notices } from '../../src/state/notices.js';
import { type Rollback, StateMark } from '../../src/state/state-mark.js';
import { silentLogger } from '../../src/telemetry/logger.js';
import { waitFor } from '../e2e/harness.js';
import { type FreezingProxy, startFreezingProxy } from '../helpers/freezing-proxy.js';
import { type PrivateRedis, REDIS_SERVER, startPrivateRedis } from '../helpers/redis-server.js';

const EVENTS: Message = { type: 'events', issuer: { id: 'ISS-1', name: 'Issuer One' }, events: [] };
const NOTICE: Message = { type: 'notice', key: 'k', severity: 'warning', title: 't', text: 'x' };
const PREFIX = '{durability-test}';

/*
 * A private master and its replica, the replica's link through a proxy that can freeze it (no bytes either
 * way, nothing closed): what WAIT answers while a replica keeps up, and while it is cut off.
 */
describe.skipIf(!REDIS_SERVER)('Durability: WAIT on a real replica', () => {
  let master: PrivateRedis;
  let replica: PrivateRedis;
  let link: FreezingProxy;
  let client: Redis;
  let onReplica: Redis;
  const settings: DurabilitySettings = { replicas: 1, timeoutMs: 100, noticeAfterMs: 0 };
  const rollbacks: Rollback[] = [];
  let durability: Durability;

  beforeAll(async () => {
    master = await startPrivateRedis();
    link = await startFreezingProxy(master.port);
    replica = await startPrivateRedis(['--replicaof', '127.0.0.1', String(link.port)]);
    onReplica = new Redis(replica.url);
    await waitFor('the replica in sync', async () =>
      /master_link_status:up/.test(await onReplica.info('replication')),
    );
    client = new Redis(master.url);
    const notices = new Notices(client, PREFIX, {
      logger: silentLogger(),
      now: () => new Date(),
      opsChannel: () => undefined,
      channelsFor: () => [],
    });
    durability = new Durability({
      mark: new StateMark(client, PREFIX),
      root: PREFIX,
      settings: () => settings,
      notices,
      onRollback: async (rollback) => {
        rollbacks.push(rollback);
      },
      now: Date.now,
      logger: silentLogger(),
    });
  });

  afterAll(async () => {
    await client?.del(stateKeys(PREFIX).stateMark, stateKeys(PREFIX).notices).catch(() => undefined);
    client?.disconnect();
    onReplica?.disconnect();
    await link?.close();
    await replica?.stop();
    await master?.stop();
  });

  it('a replica that keeps up: sent at once, the mark on the replica already', async () => {
    expect(await durability.beforeSend(client, 'desk', EVENTS)).toBeNull();
    const seq = await client.hget(stateKeys(PREFIX).stateMark, 'seq');
    expect(await onReplica.hget(stateKeys(PREFIX).stateMark, 'seq')).toBe(seq);
  });

  it('a frozen link: events wait (not durable) with the notice; notices go; replicas 0 sends', async () => {
    expect(link.freezeReplication()).toBe(1);
    const wait = await durability.beforeSend(client, 'desk', EVENTS);
    expect(wait).toBeGreaterThan(0);
    expect(await client.hexists(stateKeys(PREFIX).notices, NOT_DURABLE_NOTICE)).toBe(1);
    // The replica never saw the raise.
    const seq = Number(await client.hget(stateKeys(PREFIX).stateMark, 'seq'));
    expect(Number(await onReplica.hget(stateKeys(PREFIX).stateMark, 'seq'))).toBeLessThan(seq);
    expect(await durability.beforeSend(client, 'ops', NOTICE)).toBeNull();
    settings.replicas = 0;
    expect(await durability.beforeSend(client, 'desk', EVENTS)).toBeNull();
    settings.replicas = 1;
    expect(rollbacks).toEqual([]);
  });
});
