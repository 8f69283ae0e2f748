import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { chromiumPath, launchChromium } from '../../src/demo/headless-chromium.js';
import { holderKey } from '../../src/positions/holder-key.js';
import {
  type DaemonProcess,
  freePort,
  type Stack,
  spawnDaemon,
  startStack,
  stopDaemons,
  updateConfig,
  waitFor,
} from '../e2e/harness.js';
import { CHROMIUM_NOTE, SKIP_WITHOUT_CHROMIUM } from './needs-chromium.js';
import { picture } from './pictures.js';

// The web console in a real browser against a running daemon (a child process) polling the sandbox.
// Screenshots of every page, light and dark, land in demo-out/console/ (gitignored) for looking at.
const OUT = join('demo-out', 'console');
const SCRIPT_HOLDER = '<script>alert(1)</script> Capital';

let stack: Stack;
let app: App;
let daemon: DaemonProcess | undefined;
let browser: Browser;
let context: BrowserContext;
let base = '';
let issuerId = '';
let issuerName = '';
const dialogs: string[] = [];

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
  stack = await startStack({ issuers: 6, seed: 7, channels: ['slack', 'email'] });
  const port = await freePort();
  // Notices go to an ops console channel: without one, the parked desk's notice would fall back onto
  // the desk itself (and park there too).
  updateConfig(stack, (config) => ({
    ...config,
    http: { port, host: '127.0.0.1' },
    channels: [...(Array.isArray(config.channels) ? config.channels : []), { name: 'ops', kind: 'console' }],
    ops: { channel: 'ops' },
  }));
  base = `http://127.0.0.1:${port}`;
  app = await stack.openApp();
  daemon = await spawnDaemon(stack, 'start');
  const { scenario } = stack.sandbox;
  const ids = scenario.issuers().map((i) => i.svc_issuer_id);
  await waitFor('baseline snapshots', async () => (await app.ctx.snapshots.getMany(ids)).size === ids.length);
  const crowded = [...scenario.issuers()].sort(
    (a, b) =>
      (scenario.active(b.svc_issuer_id)?.length ?? 0) - (scenario.active(a.svc_issuer_id)?.length ?? 0),
  )[0];
  if (!crowded) throw new Error('no issuer');
  issuerId = crowded.svc_issuer_id;
  issuerName = crowded.name;
  // The next Slack message is refused for good (404 no_service): it parks, for the retry below.
  stack.slack.script({ status: 404, body: 'no_service' });
  scenario.disclose(issuerId, SCRIPT_HOLDER, 0.81);
  await waitFor('a parked desk delivery', async () => (await app.ctx.outbox.parked('desk')).length > 0);
  scenario.step();
  await waitFor(
    'a second change logged',
    async () => (await app.ctx.eventLog.recent({ limit: 50 })).length > 1,
  );
  browser = await launchChromium(path);
  context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  if (daemon) await stopDaemons([daemon]);
  await app?.stop(2_000);
  await stack?.cleanup();
});

describe.skipIf(SKIP_WITHOUT_CHROMIUM)(`the web console in headless Chromium${CHROMIUM_NOTE}`, () => {
  it('shows the overview: access, budget, requests by purpose, plan, queues, processes', async () => {
    const page = await open('/');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Overview');
    const text = (await page.locator('main').textContent()) ?? '';
    for (const part of [
      'Upstream access',
      'Budget this minute',
      'Budget this day',
      'positions polls',
      'Plan',
      'Queues',
      'desk',
      'alerts',
    ])
      expect(text).toContain(part);
    expect(await page.locator('svg.bars rect.bar').count()).toBeGreaterThan(0);
    expect(await page.locator('text=start').count()).toBeGreaterThan(0);
    await shoot(page, 'overview');
    await page.close();
  });

  it('clicks through the issuers list to an issuer chart, with a <script> holder shown as text', async () => {
    const page = await open('/issuers');
    await shoot(page, 'issuers');
    await page.getByRole('link', { name: issuerName, exact: true }).click();
    await page.waitForURL(`${base}/issuers/${encodeURIComponent(issuerId)}`);
    expect(await page.locator('h1').textContent()).toBe(issuerName);
    expect(await page.locator('svg.chart path.line').count()).toBeGreaterThan(1);
    // The hostile name is text in the legend, the holders table and the changes: never markup.
    await expect.poll(() => page.getByText(SCRIPT_HOLDER, { exact: true }).count()).toBeGreaterThanOrEqual(3);
    expect(await page.evaluate<number>('document.scripts.length')).toBe(1);
    await page.getByRole('button', { name: /Load the full history/ }).click();
    await page.waitForLoadState();
    // Spending the budget asks first: the cost, then a confirming POST.
    expect(await page.locator('main').textContent()).toContain('This spends 1 upstream request');
    await shoot(page, 'issuer-history-confirm');
    await page.getByRole('button', { name: /Spend 1 request/ }).click();
    await page.waitForLoadState();
    expect(await page.locator('main').textContent()).toContain('Full history loaded');
    expect(await page.locator('svg.chart path.line').count()).toBeGreaterThan(1);
    await shoot(page, 'issuer');
    await page.locator('table a', { hasText: SCRIPT_HOLDER }).first().click();
    await page.waitForURL(/\/holders\//);
    expect(await page.locator('h1').textContent()).toBe(SCRIPT_HOLDER);
    expect(await page.locator('svg.chart path.line').count()).toBeGreaterThan(0);
    await shoot(page, 'holder');
    await page.close();
  });

  it('lists holders, and events with where each went, filtered by kind and channel', async () => {
    const holders = await open('/holders');
    expect(await holders.getByText(SCRIPT_HOLDER, { exact: true }).count()).toBe(1);
    await shoot(holders, 'holders');
    await holders.close();
    const page = await open('/events');
    await page.locator('select[name=kind]').selectOption('opened');
    await page.locator('select[name=channel]').selectOption('desk');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/kind=opened/);
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBeGreaterThan(0);
    for (const kind of await page.locator('tbody tr td:nth-child(4)').allTextContents())
      expect(kind).toBe('opened');
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).toContain(SCRIPT_HOLDER);
    expect(text).toMatch(/parked|delivered/);
    await shoot(page, 'events');
    await page.close();
  });

  it('retries a parked delivery and watches it leave the list', async () => {
    const [parked] = await app.ctx.outbox.parked('desk');
    if (!parked) throw new Error('nothing parked');
    const page = await open('/deliveries');
    const row = page.locator(`#parked tr[data-delivery="${parked.deliveryId}"]`);
    expect(await row.textContent()).toContain('no_service');
    await shoot(page, 'deliveries');
    await row.getByRole('button', { name: 'Retry' }).click();
    await page.waitForURL(/retried=1/);
    expect(await page.locator('.notice').textContent()).toContain('1 deliveries queued again');
    await expect.poll(() => page.locator(`#parked tr[data-delivery="${parked.deliveryId}"]`).count()).toBe(0);
    await waitFor('the retried message at Slack', () =>
      stack.slack.delivered().some((post) => JSON.stringify(post.payload).includes('Capital')),
    );
    await page.close();
  });

  it('refuses a misspelt holder with the closest, then creates a mute with an expiry and removes it', async () => {
    const holder = stack.sandbox.scenario
      .active(issuerId)
      ?.find((p) => /^\w{4,}/u.test(p.position_holder))?.position_holder;
    if (holder === undefined) throw new Error('the issuer has no holder to mute');
    const typo = holder.replace(/^(\w)(\w)(\w)/u, '$1$3$2');
    const page = await open('/mutes');
    await page.locator('select[name=scope]').selectOption('holder');
    await page.locator('input[name=target]').fill(typo);
    await page.locator('input[name=for]').fill('2d');
    await page.locator('input[name=reason]').fill('on holiday <b>bold</b>');
    await page.getByRole('button', { name: 'Mute' }).click();
    // Issue 31: a holder no source names is refused, the closest offered; the form comes back filled in.
    await expect.poll(() => page.locator('main').textContent()).toContain(`closest: ${holder}`);
    expect(await page.locator('main').textContent()).toContain(`Not muted: no holder "${typo}"`);
    expect(await app.ctx.mutes.list()).toEqual([]);
    await page.locator('input[name=target]').fill(holder);
    await page.getByRole('button', { name: 'Mute' }).click();
    await page.waitForURL(/done=added/);
    const row = page.locator('#mutes tr', { hasText: holder });
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain('on holiday <b>bold</b>');
    const mutes = await app.ctx.mutes.list();
    expect(mutes.map((m) => m.target)).toEqual([holder]);
    expect((mutes[0]?.until ?? 0) - (mutes[0]?.createdAt ?? 0)).toBe(2 * 86_400_000);
    await shoot(page, 'mutes');
    await row.getByRole('button', { name: 'Remove' }).click();
    await page.waitForURL(/done=removed/);
    expect(await page.locator('#mutes-none').count()).toBe(1);
    expect(await app.ctx.mutes.list()).toEqual([]);
    await page.close();
  });

  it('fits every page into 375 px and 1280 px, light and dark: no sideways scroll, the header spans the page', async () => {
    const pages = {
      overview: '/',
      issuers: '/issuers',
      issuer: `/issuers/${encodeURIComponent(issuerId)}`,
      holders: '/holders',
      holder: `/holders/${encodeURIComponent(holderKey(SCRIPT_HOLDER))}`,
      events: '/events',
      sources: '/sources',
      deliveries: '/deliveries',
      mutes: '/mutes',
    };
    const wide: string[] = [];
    for (const width of [375, 1280]) {
      const ctx = await browser.newContext({ viewport: { width, height: 800 } });
      for (const [name, path] of Object.entries(pages)) {
        const page = await ctx.newPage();
        expect((await page.goto(`${base}${path}`))?.status(), path).toBe(200);
        // The scheme switches in place (no reload): both are measured, and pictured where a phone shows them.
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme });
          const fit = await page.evaluate<{ doc: number; view: number; header: number }>(
            `({ doc: document.documentElement.scrollWidth, view: document.documentElement.clientWidth,
               header: document.querySelector('header').getBoundingClientRect().width })`,
          );
          if (fit.doc > fit.view || fit.header !== fit.view)
            wide.push(`${name} at ${width} ${colorScheme}: ${JSON.stringify(fit)}`);
          if (width === 375 || colorScheme === 'light')
            await picture(page, join(OUT, `fit-${name}-${width}-${colorScheme}.png`));
        }
        await page.close();
      }
      await ctx.close();
    }
    expect(wide).toEqual([]);
  }, 300_000);

  it('never ran a script from the data (no dialog opened)', () => {
    expect(dialogs).toEqual([]);
  });
});
