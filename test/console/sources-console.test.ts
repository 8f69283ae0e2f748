import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { createConsole } from '../../src/console/handler.js';
import { startHttpServer } from '../../src/ops/http-server.js';
import type { PositionEvent } from '../../src/positions/types.js';
import { commitPoll } from '../../src/state/poll-commit.js';
import { RegisterStore } from '../../src/state/register-store.js';
import { type Stack, startStack } from '../e2e/harness.js';
import { eventsBetween, issuer, named, read } from './register-reads.js';

// The Sources pages over HTTP against real Redis: the kept reads, health and event log written by the
// daemon's own stores and commit script (the register poll's writes, without fetching a file).

const LEI = 'lei:549300ZVBGRRZLBVGC35';
const HOSTILE = 'Björn <b>&amp; "Söner" AB';
const HOSTILE_ESCAPED = 'Björn &lt;b&gt;&amp;amp; &quot;Söner&quot; AB';
const SWEDISH = { namesHolders: true, threshold: 0.1 };
const UNREACHABLE = 'http://127.0.0.1:9/register.csv';
// A register URL holding an access token (as `${FI_TOKEN}` in the config would): never shown.
const TOKEN = 'SWSECRET-tok-51c9-8e2fa07b3d61c94e5a';
const TOKENED = `http://reader:${TOKEN}@127.0.0.1:9/GetAktuellFile/?token=${TOKEN}`;
// Ericsson's aggregate, kept under its LEI, joined to its A share: a watchlist by that ISIN follows it.
const ERICSSON_LEI = 'lei:549300W9JLPW15XDNJ42';
const ERICSSON_A = 'SE0000108649';

let stack: Stack;
let app: App;
let server: Server;
let base = '';

function swedish(percent: number, date: string) {
  return read(
    [
      issuer(LEI, HOSTILE, { percent, date, threshold: 0.1 }, [named('Citadel <Europe>', 0.8, '2026-09-01')]),
      issuer('SE0000108227', 'SKF', { percent: 4.87, date: '2026-09-01', threshold: 0.1 }),
    ],
    SWEDISH,
  );
}

/** Writes a register issuer's events as the register poll does: one commit under the source's keys. */
async function commitEvents(source: string, key: string, events: PositionEvent[], polledAt: string | null) {
  const keys = new RegisterStore(app.redis, app.ctx.prefix).keys(source);
  const at = events[0]?.detectedAt ?? '';
  const written = await commitPoll(app.redis, app.ctx.prefix, {
    snapshot: { issuerId: key, issuerName: HOSTILE, positions: {}, lastUpdated: null, polledAt: at },
    expectedPolledAt: polledAt,
    logged: events.map((event) => ({ event, routes: [] })),
    targets: [],
    suppressed: [],
    eventsKept: 50,
    store: { snapshot: keys.snapshot(key), written: keys.issuers, member: key },
  });
  expect(written).toBe(true);
  return at;
}

beforeAll(async () => {
  stack = await startStack({
    issuers: 1,
    channels: ['console'],
    config: {
      http: { port: 0, host: '127.0.0.1' },
      sources: [
        { name: 'fi', kind: 'se-fi-aggregate', url: UNREACHABLE, interval: '1h', watchlist: [LEI] },
        { name: 'fca', kind: 'uk-ansp-current', url: UNREACHABLE, interval: '1h' },
        { name: 'afm', kind: 'afm-current', url: UNREACHABLE, interval: '1h' },
        {
          name: 'fis',
          kind: 'se-fi-current',
          url: TOKENED,
          aggregateUrl: UNREACHABLE,
          interval: '1h',
          watchlist: [ERICSSON_A],
        },
      ],
    },
  });
  app = await stack.openApp();
  const started = await startHttpServer(app, 0, '127.0.0.1', createConsole(app));
  server = started.server;
  base = `http://127.0.0.1:${started.port}`;
  const store = new RegisterStore(app.redis, app.ctx.prefix);
  const reads = [swedish(1.51, '2026-09-01'), swedish(2.05, '2026-09-08'), swedish(1.7, '2026-09-15')];
  let polledAt: string | null = null;
  for (let i = 1; i < reads.length; i++) {
    const [before, after] = [reads[i - 1], reads[i]];
    if (!before || !after) continue;
    const events = eventsBetween(before, after, `2026-09-${10 + 7 * (i - 1)}T07:00:00.000Z`, 'fi');
    polledAt = await commitEvents(
      'fi',
      LEI,
      events.filter((e) => e.issuer.id === LEI),
      polledAt,
    );
  }
  const last = reads.at(-1);
  if (last) await store.saveSnapshot('fi', last, new Date());
  const ericsson = issuer(ERICSSON_LEI, 'Telefonaktiebolaget LM Ericsson', {
    percent: 1.2,
    date: '2026-09-01',
    threshold: 0.1,
  });
  await store.saveSnapshot('fis', read([{ ...ericsson, isin: ERICSSON_A }], SWEDISH), new Date());
  await store.recordHealth('fi', { status: 'read' }, new Date());
  await store.recordHealth(
    'fca',
    { status: 'not-read', reason: 'html-page', detail: 'an error page' },
    new Date(),
  );
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await app?.stop(2_000);
  await stack?.cleanup();
});

async function get(path: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${base}${path}`);
  return { status: response.status, body: await response.text() };
}

describe('the Sources pages, served from what the register poll keeps', () => {
  it('lists each source with its register, health, counts, and the watched issuers with aggregates', async () => {
    const { status, body } = await get('/sources');
    expect(status).toBe(200);
    expect(body).toContain('<a href="/sources" aria-current="page">Sources</a>');
    expect(body).toMatch(/<a href="\/sources\/fi">fi<\/a>.*Finansinspektionen \(Sweden\).*class="ok">read</s);
    expect(body).toMatch(
      /<a href="\/sources\/fca">fca<\/a>.*class="bad">not read<\/span><br><span class="muted">html-page: an error page/s,
    );
    expect(body).toMatch(/<a href="\/sources\/afm">afm<\/a>.*class="warn">never read/s);
    // fi lists two issuers and watches one (by its LEI key).
    expect(body).toContain('<td class="num">2</td><td class="num">1</td>');
    expect(body).toContain(`<a href="/sources/fi/lei%3A549300ZVBGRRZLBVGC35">${HOSTILE_ESCAPED}</a>`);
    expect(body).not.toContain('/sources/fi/SE0000108227');
    expect(body).not.toContain('<b>');
  });

  it.each([
    ['encoded', '/sources/fi/lei%3A549300ZVBGRRZLBVGC35'],
    ['with its colon as typed', `/sources/fi/${LEI}`],
  ])(
    'opens the LEI-keyed issuer with its path %s: figures, a chart from the log, its changes',
    async (_, path) => {
      const { status, body } = await get(path);
      expect(status).toBe(200);
      expect(body).toContain(`<title>${HOSTILE_ESCAPED} in fi · shortwatch</title>`);
      expect(body).toMatch(/<h2>Aggregate of positions from 0.1%<\/h2><p class="big">1.70%<\/p>/);
      expect(body).toMatch(/<h2>Below the public threshold<\/h2><p class="big">0.90%<\/p>/);
      expect(body).toContain('Citadel &lt;Europe&gt;');
      // One line from the log's steps (1.51% on 1 Sep, 2.05% on 8 Sep) to the value read now (1.70% on 15 Sep).
      const line = /<path class="line s0 d0" d="(M[^"]+)"><title>Aggregate of positions from 0.1%/.exec(
        body,
      )?.[1];
      expect(line?.match(/V/g)).toHaveLength(2);
      expect(body).toContain('>Aggregate of positions from 0.1%, % of issued shares</text>');
      expect(body).toMatch(
        /aggregate crossed a level <span class="pill">register fi<\/span> <span class="pill">from 0.1%<\/span>/,
      );
      expect(body).not.toMatch(/<b>|<Europe>/);
    },
  );

  it('answers 404 for a source not configured and an issuer the source neither lists nor logged', async () => {
    expect((await get('/sources/nowhere')).status).toBe(404);
    expect((await get('/sources/nowhere/SE0000108227')).status).toBe(404);
    const unknown = await get('/sources/fi/SE0000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toContain('does not list <code>SE0000000000</code>');
    expect((await get('/sources/fi/%E0%A4%A')).status).toBe(404);
  });

  it('shows a register event on the events page with its source and threshold, linked to its register page', async () => {
    const { status, body } = await get('/events?source=fi');
    expect(status).toBe(200);
    expect(body).toContain(`<a href="/sources/fi/lei%3A549300ZVBGRRZLBVGC35">${HOSTILE_ESCAPED}</a>`);
    expect(body).toMatch(
      /aggregate crossed a level <span class="pill">register fi<\/span> <span class="pill">from 0.1%<\/span>/,
    );
    expect(body).toContain('<option value="fi" selected>register fi</option>');
    const api = await get('/events?source=API');
    expect(api.body).not.toContain('register fi</span>');
  });

  it("never shows a register URL's credentials or query, which may hold a token", async () => {
    for (const path of ['/sources', '/sources/fis', `/sources/fis/${encodeURIComponent(ERICSSON_LEI)}`]) {
      const { status, body } = await get(path);
      expect(status).toBe(200);
      expect(body).not.toContain(TOKEN);
    }
    expect((await get('/sources/fis')).body).toContain('<code>http://127.0.0.1:9/GetAktuellFile/?…</code>');
  });

  it('counts an aggregate kept under its LEI as watched by the ISIN of the share it was joined to', async () => {
    const list = await get('/sources/fis');
    expect(list.body).toContain(`/sources/fis/${encodeURIComponent(ERICSSON_LEI)}`);
    const { status, body } = await get(`/sources/fis/${encodeURIComponent(ERICSSON_LEI)}`);
    expect(status).toBe(200);
    expect(body).not.toContain('not watched');
  });
});
