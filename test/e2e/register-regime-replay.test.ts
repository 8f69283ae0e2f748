import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { NAMED_HOLDERS } from '../../src/jobs/observe/regime-event.js';
import { stateKeys } from '../../src/state/keys.js';
import { RegisterStore } from '../../src/state/register-store.js';
import { type Stack, slackText, startStack, waitFor } from './harness.js';
import { afmChanged, afmMostDropped } from './register-changes.js';
import { type RegisterServer, startRegisterServer } from './register-server.js';

// Most of the register's issuers emptied at once, confirmed by a second read: a regime drop, committed issuer by issuer. A read that fails part-way (here: Redis refuses the third
// issuer's write, as a crash would stop it) is read again; the issuers not yet committed are still
// part of the same drop, never closes told one by one.
let stack: Stack;
let app: App;
let server: RegisterServer;

beforeAll(async () => {
  server = await startRegisterServer();
  server.serve('/afm.csv', afmChanged());
  stack = await startStack({
    issuers: 1,
    channels: ['slack'],
    config: {
      // A register that stops naming most holders keeps few rows: the shrink check would refuse it.
      sources: [
        {
          name: 'afm',
          kind: 'afm-current',
          url: server.url('/afm.csv'),
          interval: '500ms',
          fetch: { minShrinkRatio: 0 },
        },
      ],
    },
  });
  app = await stack.openApp();
  await app.startDaemon({ workerOnly: false });
  await waitFor('afm read once', async () => (await store().health('afm'))?.status === 'read');
}, 60_000);

afterAll(async () => {
  await app?.stop(2_000);
  await stack?.cleanup();
  await server?.close();
});

function store(): RegisterStore {
  return new RegisterStore(app.redis, app.ctx.prefix);
}

async function afmEvents(): Promise<string[]> {
  const events = await app.ctx.eventLog.recent({ limit: 500 });
  return events
    .filter((e) => e.source === 'afm')
    .map((e) => `${e.issuer.id}|${e.holder === NAMED_HOLDERS ? 'named-holders' : e.kind}`)
    .sort();
}

describe('a regime drop whose commit failed part-way', () => {
  it('is still one message per issuer when the read is replayed, never closes', async () => {
    const { bytes, dropped } = afmMostDropped();
    const third = dropped[2] ?? '';
    const blocker = stateKeys(app.ctx.prefix).issuerEvents(third);
    await app.redis.set(blocker, 'not a stream');
    const hits = server.hits('/afm.csv').all;
    server.serve('/afm.csv', bytes);
    // The first two issuers are committed, the third's write fails: the read is not saved, and is
    // read again every interval with the first two issuers already at no holders.
    await waitFor('two regime events logged', async () => (await afmEvents()).length >= 2);
    await waitFor('the read tried again', () => server.hits('/afm.csv').all >= hits + 3);
    expect((await afmEvents()).filter((e) => !e.endsWith('|named-holders'))).toEqual([]);
    await app.redis.del(blocker);
    await waitFor('a message per issuer', () => stack.slack.delivered().length >= dropped.length);
    const seen = server.hits('/afm.csv').all;
    await waitFor('two more reads', () => server.hits('/afm.csv').all >= seen + 2);
    const messages = stack.slack.delivered().map((p) => slackText(p.payload));
    for (const isin of dropped) expect(messages.filter((m) => m.includes(isin))).toHaveLength(1);
    for (const message of messages) expect(message).toMatch(/Named holders no longer published/);
    expect(messages.join('\n')).not.toMatch(/fell below/);
    expect((await afmEvents()).filter((e) => !e.endsWith('|named-holders'))).toEqual([]);
  }, 40_000);
});
