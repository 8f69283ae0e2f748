import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { holderKey } from '../../src/positions/index.js';
import { registerBytes } from '../helpers/register-fixtures.js';
import { type Stack, slackText, startStack, waitFor } from './harness.js';
import {
  AFM_FIXTURE,
  afmChanged,
  afmShrunk,
  afmTruncated,
  afmWrongHeader,
  NORWAY_FIXTURE,
  norwayChanged,
  SWEDEN_FIXTURE,
  swedenChanged,
} from './register-changes.js';
import { type RegisterServer, startRegisterServer } from './register-server.js';

// One stack for the file: registers served by a local stand-in, read every 500 ms beside the sandbox API.
let stack: Stack;
let app: App;
let server: RegisterServer;

const SOURCES = [
  { name: 'afm', kind: 'afm-current', path: '/afm.csv', fixture: AFM_FIXTURE },
  { name: 'oslo', kind: 'no-ssr-json', path: '/ssr.json', fixture: NORWAY_FIXTURE },
  { name: 'fi', kind: 'se-fi-current', path: '/fi.ods', fixture: SWEDEN_FIXTURE },
] as const;

beforeAll(async () => {
  server = await startRegisterServer();
  for (const source of SOURCES) server.serve(source.path, registerBytes(source.fixture));
  stack = await startStack({
    issuers: 1,
    config: {
      sources: SOURCES.map((s) => ({
        name: s.name,
        kind: s.kind,
        url: server.url(s.path),
        interval: '500ms',
      })),
    },
  });
  app = await stack.openApp();
  await app.startDaemon({ workerOnly: false });
  await waitFor('every register read once', async () => {
    const health = await Promise.all(SOURCES.map((s) => app.registers?.store.health(s.name)));
    return health.every((h) => h?.status === 'read');
  });
}, 60_000);

afterAll(async () => {
  await app?.stop(2_000);
  await stack?.cleanup();
  await server?.close();
});

/** The register events of the log, as `source|issuer|holderKey|kind`. */
async function registerEvents(): Promise<string[]> {
  const events = await app.ctx.eventLog.recent({ limit: 500 });
  return events
    .filter((e) => e.source !== undefined)
    .map((e) => `${e.source}|${e.issuer.id}|${e.holderKey}|${e.kind}`)
    .sort();
}

/** Waits until every source answered at least `n` more requests: reads after a change have happened. */
async function readsPass(n: number): Promise<void> {
  const start = SOURCES.map((s) => server.hits(s.path).all);
  await waitFor(`${n} more reads of every register`, () =>
    SOURCES.every((s, i) => server.hits(s.path).all >= (start[i] ?? 0) + n),
  );
}

describe('registers: file served → conditional GET → diff → Slack and e-mail', () => {
  it('takes a silent baseline, then tells each holder raised or gone once, naming the register', async () => {
    expect(await registerEvents()).toEqual([]);
    await readsPass(2);
    // An unchanged file costs a 304.
    expect(server.hits('/afm.csv').notModified).toBeGreaterThan(0);
    expect(stack.slack.delivered()).toHaveLength(0);
    expect(stack.smtp.mails).toHaveLength(0);

    server.serve('/afm.csv', afmChanged());
    server.serve('/ssr.json', norwayChanged());
    server.serve('/fi.ods', swedenChanged());
    const expected = [
      `afm|NL0000379121|${holderKey('Marshall Wace LLP')}|increased`,
      `afm|NL0009739416|${holderKey('Citadel Advisors LLC')}|closed`,
      `fi|SE0000106270|${holderKey('Marshall Wace LLP')}|closed`,
      `fi|SE0000108227|${holderKey('Citadel Advisors Europe Limited')}|increased`,
      `oslo|NO0010081235|${holderKey('Helikon Investments Limited')}|increased`,
      `oslo|NO0010081235|${holderKey('Odey Asset Management LLP')}|closed`,
    ].sort();
    await waitFor('the six register events', async () => (await registerEvents()).length >= 6, 30_000);
    expect(await registerEvents()).toEqual(expected);

    // Five issuers changed: one Slack message and one e-mail each, naming the register they came from.
    await waitFor('five Slack messages', () => stack.slack.delivered().length >= 5, 20_000);
    await waitFor('five e-mails', () => stack.smtp.mails.length >= 5, 20_000);
    const slack = stack.slack.delivered().map((post) => slackText(post.payload));
    expect(slack.find((text) => text.includes('Randstad'))).toMatch(/from register afm/);
    expect(slack.find((text) => text.includes('NEL'))).toMatch(/from register oslo/);
    expect(slack.find((text) => text.includes('SKF'))).toMatch(/from register fi/);
    const randstad = stack.smtp.mails.find((mail) => mail.parsed.subject?.includes('Randstad'));
    expect(randstad?.parsed.text).toMatch(/Marshall Wace LLP raised 0\.70% → 0\.95%/);
    expect(randstad?.parsed.text).toMatch(/from register afm/);

    // Later reads find the same files (304s): nothing is told twice.
    await readsPass(3);
    expect(stack.slack.delivered()).toHaveLength(5);
    expect(stack.smtp.mails).toHaveLength(5);
    expect(await registerEvents()).toEqual(expected);
  }, 60_000);

  it.each([
    ['a truncated file', () => afmTruncated(), 'truncated'],
    ['a file under the wrong header', () => afmWrongHeader(), 'wrong-header'],
    [
      'an HTML error page served with 200',
      () => Buffer.from('<!DOCTYPE html><html><body>Error</body></html>'),
      'html-page',
    ],
    ['a file shrunk by half', () => afmShrunk(0.45), 'shrank'],
  ])(
    '%s changes nothing: the source is "not read" with the reason and a notice is raised',
    async (_, body, reason) => {
      const events = await registerEvents();
      const posts = stack.slack.delivered().length;
      server.serve('/afm.csv', body());
      await waitFor(`afm not read (${reason})`, async () => {
        const health = await app.registers?.store.health('afm');
        return health?.status === 'not-read' && health.reason === reason;
      });
      const notices = await app.ctx.notices.list();
      expect(notices.find((n) => n.key === 'source-not-read-afm')?.text).toContain(reason);
      await readsPass(2);
      expect(await registerEvents()).toEqual(events);
      expect(stack.slack.delivered()).toHaveLength(posts);

      // The good file back: read again, the notice cleared, still nothing told.
      server.serve('/afm.csv', afmChanged());
      await waitFor(
        'afm read again',
        async () => (await app.registers?.store.health('afm'))?.status === 'read',
      );
      await waitFor('notice cleared', async () =>
        (await app.ctx.notices.list()).every((n) => n.key !== 'source-not-read-afm'),
      );
      await readsPass(1);
      expect(await registerEvents()).toEqual(events);
    },
    30_000,
  );
});
