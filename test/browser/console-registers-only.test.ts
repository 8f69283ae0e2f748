import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { createConsole } from '../../src/console/handler.js';
import { chromiumPath, launchChromium } from '../../src/demo/headless-chromium.js';
import { startHttpServer } from '../../src/ops/http-server.js';
import { holderKey } from '../../src/positions/holder-key.js';
import { RegisterStore } from '../../src/state/register-store.js';
import { type Stack, startStack, updateConfig, waitFor } from '../e2e/harness.js';
import { AFM_FIXTURE, ANSP_FIXTURE } from '../e2e/register-changes.js';
import { type RegisterServer, startRegisterServer } from '../e2e/register-server.js';
import { registerBytes } from '../helpers/register-fixtures.js';
import { CHROMIUM_NOTE, SKIP_WITHOUT_CHROMIUM } from './needs-chromium.js';
import { picture, WRITE_PNGS } from './pictures.js';

// A registers-only deployment (sources and no upstream) in a real browser: the AFM's register (named
// holders) and the FCA's aggregates, read from a local stand-in by a daemon in this process. The Holders,
// Issuers and holder pages show what the registers hold, as they show the API's. Screenshots at 375 and
// 1280 px land in a temporary directory, printed.
const OUT = join(tmpdir(), 'shortwatch-console-registers-only');
const TOKEN = 'registers-only-token-6c02d1-9f3a7b5e1d2c';
const MARSHALL = holderKey('Marshall Wace LLP');

let stack: Stack;
let app: App;
let registers: RegisterServer;
let server: Server;
let browser: Browser;
let context: BrowserContext;
let base = '';

/** Opens a path at a width, checks it does not scroll sideways, and writes its PNG. */
async function shoot(path: string, name: string, width: number): Promise<string> {
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 800 });
  expect((await page.goto(`${base}${path}`))?.status(), path).toBe(200);
  const fit = await page.evaluate<{ doc: number; view: number }>(
    '({ doc: document.documentElement.scrollWidth, view: document.documentElement.clientWidth })',
  );
  expect(fit.doc, `${path} at ${width} px scrolls sideways`).toBeLessThanOrEqual(fit.view);
  await picture(page, join(OUT, `${name}-${width}.png`));
  const text = (await page.locator('main').textContent()) ?? '';
  await page.close();
  return text;
}

beforeAll(async () => {
  if (SKIP_WITHOUT_CHROMIUM) return;
  const path = chromiumPath();
  if (!path) throw new Error('no chromium on PATH: apt-get install -y chromium (as .ci/run does)');
  mkdirSync(OUT, { recursive: true });
  if (WRITE_PNGS) console.info(`console-registers-only screenshots: ${OUT}`);
  registers = await startRegisterServer();
  registers.serve('/afm.csv', registerBytes(AFM_FIXTURE));
  registers.serve('/ansp.csv', registerBytes(ANSP_FIXTURE));
  stack = await startStack({ issuers: 1, channels: ['slack'] });
  updateConfig(stack, (config) => {
    const { upstream: _upstream, watchlist: _watchlist, ...rest } = config;
    return {
      ...rest,
      http: { port: 0, host: '127.0.0.1', auth: { token: TOKEN } },
      sources: [
        { name: 'afm', kind: 'afm-current', url: registers.url('/afm.csv'), interval: '500ms' },
        { name: 'fca', kind: 'uk-ansp-current', url: registers.url('/ansp.csv'), interval: '500ms' },
      ],
    };
  });
  app = await stack.openApp();
  await app.startDaemon({ workerOnly: false });
  const store = new RegisterStore(app.redis, app.ctx.prefix);
  await waitFor(
    'both registers read once',
    async () => {
      const kept = await Promise.all(['afm', 'fca'].map((name) => store.lastSnapshot(name)));
      return kept.every((read) => read !== null);
    },
    30_000,
  );
  const started = await startHttpServer(app, 0, '127.0.0.1', createConsole(app));
  server = started.server;
  base = `http://127.0.0.1:${started.port}`;
  browser = await launchChromium(path);
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const login = await context.newPage();
  await login.goto(`${base}/login`);
  await login.locator('input[name=token]').fill(TOKEN);
  await login.locator('input[name=token]').press('Enter');
  await login.waitForURL((url) => url.pathname !== '/login');
  await login.close();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await app?.stop(2_000);
  await stack?.cleanup();
  await registers?.close();
});

describe.skipIf(SKIP_WITHOUT_CHROMIUM)(
  `a registers-only deployment's console in headless Chromium${CHROMIUM_NOTE}`,
  () => {
    it("lists the registers' holders on /holders, Marshall Wace with his three AFM positions", async () => {
      for (const width of [375, 1280]) {
        const text = await shoot('/holders', 'holders', width);
        expect(text).not.toContain('0 holders');
        expect(text).toContain('Marshall Wace LLP');
      }
      const page = await context.newPage();
      await page.goto(`${base}/holders`);
      const row = page
        .locator('tbody tr')
        .filter({ has: page.getByRole('link', { name: 'Marshall Wace LLP' }) });
      expect(await row.locator('td.num').textContent()).toBe('3');
      expect(await row.textContent()).toContain('InPost S.A. 0.90%');
      await page.close();
    });

    it("shows Marshall Wace's page: short in 3 issuers, each linking to its register page", async () => {
      for (const width of [375, 1280]) {
        const text = await shoot(`/holders/${encodeURIComponent(MARSHALL)}`, 'holder-marshall', width);
        expect(text).toContain('Short in 3 watched issuers now, 2.12% in all.');
      }
      const page = await context.newPage();
      await page.goto(`${base}/holders/${encodeURIComponent(MARSHALL)}`);
      await page.getByRole('link', { name: 'InPost S.A.' }).click();
      await page.waitForURL(`${base}/sources/afm/LU2290522684`);
      expect(await page.locator('h1').textContent()).toBe('InPost S.A. in afm');
      await page.close();
    });

    it("lists each register's watched issuers on /issuers, the FCA's aggregates with their threshold", async () => {
      for (const width of [375, 1280]) {
        const text = await shoot('/issuers', 'issuers', width);
        expect(text).toContain('Register afm');
        expect(text).toContain('Register fca');
        expect(text).toContain('Aggregate of positions from 0.2%');
        expect(text).toContain('InPost S.A.');
        expect(text).not.toContain('0 issuers on the watchlist');
      }
    });
  },
);
