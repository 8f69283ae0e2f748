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
    // A replica that keeps up answers in a millisecond; the generous timeout is for a loaded machine.
    settings.timeoutMs = 3_000;
    expect(await durability.beforeSend(client, 'desk', EVENTS)).toBeNull();
    settings.timeoutMs = 100;
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

  /** A Durability of its own on the test's connection, with a clock the test moves. */
  function gate(own: DurabilitySettings, clock: { ms: number }, sentinelReplicas?: () => Promise<number>) {
    const notices = new Notices(client, PREFIX, {
      logger: silentLogger(),
      now: () => new Date(clock.ms),
      opsChannel: () => undefined,
      channelsFor: () => [],
    });
    const gated = new Durability({
      mark: new StateMark(client, PREFIX),
      root: PREFIX,
      settings: () => own,
      notices,
      ...(sentinelReplicas ? { sentinelReplicas } : {}),
      onRollback: async (rollback) => {
        rollbacks.push(rollback);
      },
      now: () => clock.ms,
      logger: silentLogger(),
    });
    return gated;
  }

  it('a wait ended by a send without WAIT: the next wait is timed from its own start (no notice at once)', async () => {
    // The link is still frozen: every WAIT for 1 replica times out.
    await client.hdel(stateKeys(PREFIX).notices, NOT_DURABLE_NOTICE);
    const own: DurabilitySettings = { replicas: 1, timeoutMs: 50, noticeAfterMs: 60_000 };
    const clock = { ms: 1_000_000 };
    const gated = gate(own, clock);
    expect(await gated.beforeSend(client, 'desk', EVENTS)).toBeGreaterThan(0);
    // The operator turns the wait off: the message goes.
    own.replicas = 0;
    expect(await gated.beforeSend(client, 'desk', EVENTS)).toBeNull();
    // Two minutes later the wait is on again and the next message waits: a wait of 0 s, not of two minutes.
    own.replicas = 1;
    clock.ms += 120_000;
    expect(await gated.beforeSend(client, 'desk', EVENTS)).toBeGreaterThan(0);
    expect(await client.hexists(stateKeys(PREFIX).notices, NOT_DURABLE_NOTICE)).toBe(0);
    clock.ms += 60_000;
    expect(await gated.beforeSend(client, 'desk', EVENTS)).toBeGreaterThan(0);
    expect(await client.hexists(stateKeys(PREFIX).notices, NOT_DURABLE_NOTICE)).toBe(1);
  });

  it('auto with no replica connected: waits while the sentinels name one, sends when none is named', async () => {
    await replica.stop();
    await waitFor('the master sees no replica', async () =>
      /connected_slaves:0/.test(await client.info('replication')),
    );
    const own: DurabilitySettings = { replicas: 1, atMostKnown: true, timeoutMs: 50, noticeAfterMs: 60_000 };
    let named = 1;
    const gated = gate(own, { ms: 2_000_000 }, async () => named);
    // The replica the sentinels name is down: the message waits for it rather than go un-replicated.
    expect(await gated.beforeSend(client, 'desk', EVENTS)).toBeGreaterThan(0);
    // A master run without replicas has nothing to wait for.
    named = 0;
    expect(await gated.beforeSend(client, 'desk', EVENTS)).toBeNull();
    // Without the sentinels' word (one node, or a number set by hand), a replica set by hand is waited for.
    expect(
      await gate({ ...own, atMostKnown: false }, { ms: 0 }).beforeSend(client, 'desk', EVENTS),
    ).toBeGreaterThan(0);
  });
});
