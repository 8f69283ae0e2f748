import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { createConsole } from '../../src/console/handler.js';
import { chromiumPath, launchChromium } from '../../src/demo/headless-chromium.js';
import { startHttpServer } from '../../src/ops/http-server.js';
import { RegisterStore } from '../../src/state/register-store.js';
import { type Stack, startStack, waitFor } from '../e2e/harness.js';
import {
  ANSP_FIXTURE,
  anspChanged,
  HEXAGON_LEI,
  NORWAY_FIXTURE,
  SWEDEN_AGGREGATE_FIXTURE,
  swedenAggregateChanged,
} from '../e2e/register-changes.js';
import { type RegisterServer, startRegisterServer } from '../e2e/register-server.js';
import { registerBytes } from '../helpers/register-fixtures.js';
import { CHROMIUM_NOTE, SKIP_WITHOUT_CHROMIUM } from './needs-chromium.js';
import { picture, WRITE_PNGS } from './pictures.js';

// The Sources pages in a real browser, signed in with a token, against a daemon (in this process) that
// reads three registers from a local stand-in: Norway's SSR (holders and an aggregate from 0.5%, with
// its history), the FCA's ANSP (aggregates from 0.2%) and FI's aggregates (from 0.1%, keyed by LEI).
// NEL is renamed with markup, an ampersand and quotes, one of its holders is a <script>. Screenshots
// land in a temporary directory, kept for looking at: its path is printed.
const OUT = join(tmpdir(), 'shortwatch-console-sources');
const TOKEN = 'sources-token-3b81e5-0c7d94f2a6e815b3';
const NEL = 'NO0010081235';
const NEL_NAME = 'NEL <b>&amp; "Hydrogen" ASA';
const SCRIPT_HOLDER = `<script>alert(1)</script> O'Brien & Co`;

let stack: Stack;
let app: App;
let registers: RegisterServer;
let server: Server;
let browser: Browser;
let context: BrowserContext;
let base = '';
const dialogs: string[] = [];

interface NorwayEvent {
  date: string;
  shortPercent: number;
  shares: number;
  activePositions: Array<{ date: string; shortPercent: number; shares: number; positionHolder: string }>;
}

/**
 * Norway's SSR with NEL renamed and Helikon renamed to a <script>; each step adds a newer event to NEL:
 * step 1 the script holder raised 2.2% → 2.6% (aggregate 4.23% → 4.63%), step 2 Odey gone (→ 4.06%).
 */
function norway(step: number): Buffer {
  const issuers = JSON.parse(registerBytes(NORWAY_FIXTURE).toString('utf8')) as Array<{
    isin: string;
    issuerName: string;
    events: NorwayEvent[];
  }>;
  const nel = issuers.find((issuer) => issuer.isin === NEL);
  if (nel === undefined) throw new Error('the Norway fixture lacks NEL');
  nel.issuerName = NEL_NAME;
  for (const event of nel.events)
    for (const p of event.activePositions)
      if (p.positionHolder.startsWith('Helikon')) p.positionHolder = SCRIPT_HOLDER;
  const next = (
    date: string,
    change: (positions: NorwayEvent['activePositions']) => NorwayEvent['activePositions'],
  ) => {
    const latest = nel.events[0];
    if (!latest) throw new Error('NEL has no event');
    const positions = change(latest.activePositions.map((p) => ({ ...p })));
    const sum = Math.round(positions.reduce((total, p) => total + p.shortPercent, 0) * 100) / 100;
    nel.events.unshift({ date, shortPercent: sum, shares: 0, activePositions: positions });
  };
  if (step >= 1)
    next('2022-08-23', (ps) =>
      ps.map((p) =>
        p.positionHolder === SCRIPT_HOLDER ? { ...p, date: '2022-08-23', shortPercent: 2.6 } : p,
      ),
    );
  if (step >= 2) next('2022-08-30', (ps) => ps.filter((p) => !p.positionHolder.startsWith('Odey')));
  return Buffer.from(JSON.stringify(issuers, null, 2));
}

/** Waits until the log holds `n` aggregate events of `issuer` read from `source`. */
async function aggregateEvents(source: string, issuer: string, n: number): Promise<void> {
  await waitFor(
    `${n} aggregate events of ${issuer} from ${source}`,
    async () =>
      (await app.ctx.eventLog.recent({ issuerId: issuer, limit: 50 })).filter(
        (e) => e.source === source && e.aggregate,
      ).length >= n,
    30_000,
  );
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await picture(page, join(OUT, `${name}-${scheme}.png`));
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function open(path: string): Promise<Page> {
  const page = await context.newPage();
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const response = await page.goto(`${base}${path}`);
  expect(response?.status(), path).toBe(200);
  return page;
}

beforeAll(async () => {
  if (SKIP_WITHOUT_CHROMIUM) return;
  const path = chromiumPath();
  if (!path) throw new Error('no chromium on PATH: apt-get install -y chromium (as .ci/run does)');
  mkdirSync(OUT, { recursive: true });
  if (WRITE_PNGS) console.info(`console-sources screenshots: ${OUT}`);
  registers = await startRegisterServer();
  registers.serve('/ssr.json', norway(0));
  registers.serve('/ansp.csv', registerBytes(ANSP_FIXTURE));
  registers.serve('/fiagg.ods', registerBytes(SWEDEN_AGGREGATE_FIXTURE));
  const source = (name: string, kind: string, file: string) => ({
    name,
    kind,
    url: registers.url(file),
    interval: '500ms',
  });
  stack = await startStack({
    issuers: 1,
    channels: ['slack'],
    config: {
      http: { port: 0, host: '127.0.0.1', auth: { token: TOKEN } },
      sources: [
        source('oslo', 'no-ssr-json', '/ssr.json'),
        source('fca', 'uk-ansp-current', '/ansp.csv'),
        source('fiagg', 'se-fi-aggregate', '/fiagg.ods'),
      ],
    },
  });
  app = await stack.openApp();
  await app.startDaemon({ workerOnly: false });
  const store = new RegisterStore(app.redis, app.ctx.prefix);
  await waitFor(
    'every register read once',
    async () => {
      const health = await Promise.all(['oslo', 'fca', 'fiagg'].map((name) => store.health(name)));
      return health.every((h) => h?.status === 'read');
    },
    30_000,
  );
  // Two changes of NEL (its aggregate moved twice), one of the FCA's and FI's files.
  registers.serve('/ssr.json', norway(1));
  registers.serve('/ansp.csv', anspChanged());
  registers.serve('/fiagg.ods', swedenAggregateChanged());
  await aggregateEvents('oslo', NEL, 1);
  registers.serve('/ssr.json', norway(2));
  await aggregateEvents('oslo', NEL, 2);
  await aggregateEvents('fiagg', `lei:${HEXAGON_LEI}`, 1);
  const started = await startHttpServer(app, 0, '127.0.0.1', createConsole(app));
  server = started.server;
  base = `http://127.0.0.1:${started.port}`;
  browser = await launchChromium(path);
  context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await app?.stop(2_000);
  await stack?.cleanup();
  await registers?.close();
});

describe.skipIf(SKIP_WITHOUT_CHROMIUM)(`the Sources pages in headless Chromium${CHROMIUM_NOTE}`, () => {
  it('signs in with the token and lands on /sources: every register read, its counts, its watched issuers', async () => {
    const page = await context.newPage();
    await page.goto(`${base}/sources`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.locator('input[name=token]').fill(TOKEN);
    await page.locator('input[name=token]').press('Enter');
    await page.waitForURL(`${base}/sources`);
    expect(await page.locator('h1').textContent()).toBe('Sources');
    expect(await page.locator('nav a[aria-current=page]').textContent()).toBe('Sources');
    const summary = page.locator('table').first().locator('tbody tr');
    expect(await summary.count()).toBe(3);
    const sources = [
      ['oslo', 'Finanstilsynet (Norway)'],
      ['fca', 'FCA (UK): aggregated net short positions, current'],
      ['fiagg', 'Finansinspektionen (Sweden): aggregated'],
    ] as const;
    const row = (name: string) => summary.filter({ has: page.getByRole('link', { name, exact: true }) });
    // Every source read within its last three intervals (500 ms each): on 2 busy cores a read can come
    // later than that for a moment, and the page then rightly says stale. Reloaded until all say read.
    await waitFor('every source shown as read', async () => {
      const states = await Promise.all(
        sources.map(async ([name]) => row(name).locator('td:nth-child(3)').textContent()),
      );
      if (states.every((state) => state === 'read')) return true;
      await page.reload();
      return false;
    });
    for (const [name, register] of sources) {
      expect(await row(name).textContent()).toContain(register);
      expect(await row(name).locator('td:nth-child(3)').textContent()).toBe('read');
    }
    // Norway lists six issuers, all watched; the column of its watched issuers names its threshold.
    expect(await summary.nth(0).locator('td.num').allTextContents()).toEqual(['6', '6']);
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).toContain('Aggregate of positions from 0.5%');
    expect(text).toContain('Aggregate of positions from 0.2%');
    expect(text).toContain('Aggregate of positions from 0.1%');
    // No register here both names holders and sums from under 0.5%: no column of 0.00% below the public threshold.
    expect(text).not.toContain('Below the public threshold');
    await shoot(page, 'sources');
    // Three of Norway's six issuers publish an aggregate now; its own page lists all six.
    await page.getByRole('link', { name: 'All 6 watched issuers of oslo' }).click();
    await page.waitForURL(`${base}/sources/oslo`);
    expect(await page.locator('h1').textContent()).toBe('Source oslo');
    expect(await page.locator('table').last().locator('tbody tr').count()).toBe(6);
    await shoot(page, 'source-oslo');
    await page.close();
  });

  it('clicks to NEL in oslo: its name as text, the aggregate with its threshold, its chart, the <script> holder as text', async () => {
    const page = await open('/sources');
    await page.getByRole('link', { name: NEL_NAME, exact: true }).click();
    await page.waitForURL(`${base}/sources/oslo/${NEL}`);
    expect(await page.locator('h1').textContent()).toBe(`${NEL_NAME} in oslo`);
    const cards = (await page.locator('.cards').textContent()) ?? '';
    expect(cards).toContain('Aggregate of positions from 0.5%4.06%on 2022-08-30');
    expect(cards).toContain('Named positions (from 0.5%)4.06%3 holders');
    // Norway sums from 0.5%, as it names holders: no short interest under the public threshold is published.
    expect(cards).toContain(
      'Below the public threshold-The aggregate counts from 0.5%, as the named positions do',
    );
    // One line (one threshold) from the kept history through the two logged moves to 4.06% now.
    expect(await page.locator('svg.chart').count()).toBe(1);
    expect(await page.locator('svg.chart path.line').count()).toBe(1);
    expect(await page.locator('svg.chart text.axis-label').textContent()).toBe(
      'Aggregate of positions from 0.5%, % of issued shares',
    );
    expect(await page.locator('svg.chart').getAttribute('aria-label')).toBe(
      `Aggregate of positions from 0.5% in ${NEL_NAME}, over time`,
    );
    const steps = (await page.locator('svg.chart path.line').getAttribute('d'))?.match(/V/g)?.length ?? 0;
    expect(steps).toBeGreaterThan(8);
    expect(await page.getByText(SCRIPT_HOLDER, { exact: true }).count()).toBeGreaterThanOrEqual(2);
    const changes = page.locator('table').last().locator('tbody tr');
    expect(await changes.filter({ hasText: 'aggregate moved' }).count()).toBe(2);
    expect(await changes.filter({ hasText: 'aggregate moved' }).first().textContent()).toContain(
      'register oslo from 0.5%',
    );
    expect(await page.evaluate<number>('document.scripts.length')).toBe(1);
    await shoot(page, 'source-issuer-nel');
    await page.close();
  });

  it('opens Hexagon by its LEI key in fiagg: a chart from 0.1%, and the events page linking back to it', async () => {
    const path = `/sources/fiagg/${encodeURIComponent(`lei:${HEXAGON_LEI}`)}`;
    const page = await open(path);
    expect(await page.locator('h1').textContent()).toMatch(/^Hexagon.* in fiagg$/i);
    expect(await page.locator('svg.chart text.axis-label').textContent()).toBe(
      'Aggregate of positions from 0.1%, % of issued shares',
    );
    expect(await page.locator('.cards').textContent()).toContain('This register names no holders');
    await shoot(page, 'source-issuer-hexagon');
    await page.getByRole('link', { name: 'These events with where they were delivered' }).click();
    await page.waitForURL(/\/events\?issuer=lei%3A.*&source=fiagg/);
    const row = page.locator('tbody tr').first();
    expect(await row.textContent()).toContain('aggregate crossed a level');
    expect(await row.textContent()).toContain('from 0.1%');
    await shoot(page, 'events-fiagg');
    await row.getByRole('link').first().click();
    await page.waitForURL(`${base}${path}`);
    await page.close();
  });

  it('fits /sources and a source issuer into 375 px: no sideways scroll', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 800 } });
    await phone.addCookies(await context.cookies(base));
    const wide: string[] = [];
    for (const [name, path] of [
      ['sources', '/sources'],
      ['source-issuer', `/sources/oslo/${NEL}`],
    ]) {
      const page = await phone.newPage();
      expect((await page.goto(`${base}${path}`))?.status(), path).toBe(200);
      const fit = await page.evaluate<{ doc: number; view: number }>(
        '({ doc: document.documentElement.scrollWidth, view: document.documentElement.clientWidth })',
      );
      if (fit.doc > fit.view) wide.push(`${name}: ${JSON.stringify(fit)}`);
      await picture(page, join(OUT, `fit-${name}-375.png`));
      await page.close();
    }
    await phone.close();
    expect(wide).toEqual([]);
  });

  it('never ran a script from the registers (no dialog opened)', () => {
    expect(dialogs).toEqual([]);
  });
});
