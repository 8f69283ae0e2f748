import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { RegisterStore } from '../../src/state/register-store.js';
import { registerBytes } from '../helpers/register-fixtures.js';
import { type Stack, startStack, updateConfig, waitFor } from './harness.js';
import { AFM_FIXTURE, NORWAY_FIXTURE, SWEDEN_AGGREGATE_FIXTURE, SWEDEN_FIXTURE } from './register-changes.js';
import { type RegisterServer, startRegisterServer } from './register-server.js';

// An operator adds `aggregateUrl` to a Swedish source that was read alone, or takes it away again. Each
// read with it differs from the kept one by every company's aggregate: neither is news to tell.
let stack: Stack;
let app: App | undefined;
let server: RegisterServer;

const positionsOnly = { name: 'fi', kind: 'se-fi-current', interval: '500ms', watchlist: 'all' };

beforeAll(async () => {
  server = await startRegisterServer();
  server.serve('/fi.ods', registerBytes(SWEDEN_FIXTURE));
  server.serve('/fiagg.ods', registerBytes(SWEDEN_AGGREGATE_FIXTURE));
  server.serve('/afm.csv', registerBytes(AFM_FIXTURE));
  server.serve('/ssr.json', registerBytes(NORWAY_FIXTURE));
  stack = await startStack({
    issuers: 1,
    channels: ['slack'],
    config: { sources: [{ ...positionsOnly, url: server.url('/fi.ods') }] },
  });
}, 60_000);

afterAll(async () => {
  await app?.stop(2_000);
  await stack?.cleanup();
  await server?.close();
});

/** Runs the daemon on the stack's config until the source was read again `reads` more times. */
async function runUntilRead(reads: number, source = 'fi', path = '/fi.ods'): Promise<void> {
  app = await stack.openApp();
  await app.startDaemon({ workerOnly: false });
  const running = app;
  const store = new RegisterStore(running.redis, running.ctx.prefix);
  const start = server.hits(path).all;
  await waitFor('the source read', async () => (await store.health(source))?.status === 'read');
  await waitFor('more reads', () => server.hits(path).all >= start + reads, 30_000);
  await running.stop(2_000);
  app = undefined;
}

async function registerEvents(source = 'fi'): Promise<string[]> {
  const observer = await stack.openApp();
  try {
    const events = await observer.ctx.eventLog.recent({ limit: 1000 });
    return events.filter((e) => e.source === source).map((e) => `${e.issuer.id}|${e.holder}`);
  } finally {
    await observer.stop(2_000);
  }
}

const withAggregates = (on: boolean) =>
  updateConfig(stack, (config) => ({
    ...config,
    sources: [
      {
        ...positionsOnly,
        url: server.url('/fi.ods'),
        ...(on ? { aggregateUrl: server.url('/fiagg.ods') } : {}),
      },
    ],
  }));

describe('a register source whose aggregate file is added or removed', () => {
  it('takes the first read of the new shape as a silent baseline of the aggregates, both ways', async () => {
    await runUntilRead(2);
    expect(await registerEvents()).toEqual([]);
    withAggregates(true);
    expect(loadConfig(stack.configPath).sources[0]?.aggregateUrl).toBeDefined();
    await runUntilRead(3);
    expect(await registerEvents()).toEqual([]);
    withAggregates(false);
    await runUntilRead(3);
    expect(await registerEvents()).toEqual([]);
    expect(stack.slack.delivered()).toHaveLength(0);
  }, 90_000);
});

describe('a register source that now reads another register under its name', () => {
  it('baselines the new register silently: no close of the old one, no opening of the new one', async () => {
    const readsOne = (kind: string, path: string) =>
      updateConfig(stack, (config) => ({
        ...config,
        sources: [{ name: 'desk-register', kind, url: server.url(path), interval: '500ms' }],
      }));
    const posts = stack.slack.delivered().length;
    readsOne('afm-current', '/afm.csv');
    await runUntilRead(2, 'desk-register', '/afm.csv');
    readsOne('no-ssr-json', '/ssr.json');
    await runUntilRead(3, 'desk-register', '/ssr.json');
    expect(await registerEvents('desk-register')).toEqual([]);
    expect(stack.slack.delivered()).toHaveLength(posts);
    // The Dutch issuers are forgotten: the source now stores Norway's alone.
    const observer = await stack.openApp();
    try {
      const store = new RegisterStore(observer.redis, observer.ctx.prefix);
      // Norway's file was read (not refused as shrunk against the AFM's row count).
      expect((await store.lastSnapshot('desk-register'))?.snapshot.kind).toBe('no-ssr-json');
      expect((await store.health('desk-register'))?.status).toBe('read');
      const keys = await store.issuerKeys('desk-register');
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.filter((key) => key.startsWith('NL'))).toEqual([]);
    } finally {
      await observer.stop(2_000);
    }
  }, 90_000);
});
