import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { createConsole } from '../../src/console/handler.js';
import { chromiumPath, launchChromium } from '../../src/demo/headless-chromium.js';
import { startHttpServer } from '../../src/ops/http-server.js';
import type { Subscriber } from '../../src/routing/subscriber.js';
import { manageLink } from '../../src/routing/subscriber-links.js';
import { freePort, type Stack, startStack } from '../e2e/harness.js';
import { CHROMIUM_NOTE, SKIP_WITHOUT_CHROMIUM } from './needs-chromium.js';
import { picture } from './pictures.js';

// A subscriber's own preference page (/me/<token>) in a real browser, on a phone and on a desk's screen:
// it fits, it saves, and an edit made over someone else's is refused. Screenshots land in
// demo-out/subscriber-page/ (gitignored) for looking at.
const OUT = join('demo-out', 'subscriber-page');
const SECRET = 'test-link-secret-0123456789-abcdefghijklmnop';

let stack: Stack;
let app: App;
let server: Server | undefined;
let browser: Browser;
let ann: Subscriber;

beforeAll(async () => {
  if (SKIP_WITHOUT_CHROMIUM) return;
  const path = chromiumPath();
  if (!path) throw new Error('no chromium on PATH: apt-get install -y chromium (as .ci/run does)');
  mkdirSync(OUT, { recursive: true });
  const port = await freePort();
  stack = await startStack({
    issuers: 2,
    config: {
      http: { port, host: '127.0.0.1' },
      subscribers: { email: 'alerts', linkSecret: SECRET, publicUrl: `http://127.0.0.1:${port}/` },
    },
  });
  app = await stack.openApp();
  ({ server } = await startHttpServer(app, port, '127.0.0.1', createConsole(app)));
  ann = await app.ctx.subscribers.add(
    {
      name: 'Ann Trader',
      email: 'ann@desk.example',
      watch: {
        issuers: [
          'Fugro N.V.',
          'NL0000009165',
          'A very long issuer name that a phone must wrap, not scroll, Holdings plc',
        ],
        holders: ['Marshall Wace LLP'],
      },
    },
    { who: 'operator', via: 'cli' },
  );
  browser = await launchChromium(path);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await app?.stop(1_000);
  await stack?.cleanup();
});

/** The page at one width, its link fresh, as the subscriber opens it from an e-mail. */
async function openPage(width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  const link = manageLink(app.settings.config, ann, new Date());
  if (!link) throw new Error('no manage link');
  const response = await page.goto(link);
  expect(response?.status()).toBe(200);
  return page;
}

/** Nothing runs past the right edge: no sideways scroll, every control inside the viewport. */
async function expectFits(page: Page, width: number): Promise<void> {
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  expect(overflow).toBeLessThanOrEqual(0);
  for (const selector of [
    'textarea[name="issuers"]',
    'input[name="minValue"]',
    'input[name="digestSchedule"]',
    'input[name="timezone"]',
    'button',
  ]) {
    const box = await page.locator(selector).first().boundingBox();
    expect(box, selector).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0), selector).toBeLessThanOrEqual(width);
  }
  // A tick box sits at the start of its own words, not centred on a line above them.
  const label = await page.locator('label', { hasText: 'Pause all alerts' }).boundingBox();
  const tick = await page.locator('input[name="paused"]').boundingBox();
  expect((tick?.x ?? 999) - (label?.x ?? 0)).toBeLessThan(20);
  expect(tick?.y ?? 0).toBeGreaterThanOrEqual((label?.y ?? 0) - 1);
  expect((tick?.y ?? 0) + (tick?.height ?? 0)).toBeLessThanOrEqual(
    (label?.y ?? 0) + (label?.height ?? 0) + 1,
  );
  // A thumb can hit the Save button (WCAG 2.2's 24 px minimum target).
  const save = await page.getByRole('button', { name: 'Save' }).boundingBox();
  expect(save?.height ?? 0).toBeGreaterThanOrEqual(24);
}

describe(`the subscriber's preference page in a browser${CHROMIUM_NOTE}`, {
  skip: SKIP_WITHOUT_CHROMIUM,
}, () => {
  it('on a phone (375 px): fits, and an edit saves and shows from the next change', {
    timeout: 60_000,
  }, async () => {
    const page = await openPage(375);
    await expect(page.getByRole('heading', { name: 'My alerts' }).isVisible()).resolves.toBe(true);
    await expect(page.locator('textarea[name="issuers"]').inputValue()).resolves.toContain('Fugro N.V.');
    await expectFits(page, 375);
    await picture(page, join(OUT, 'me-375.png'));

    await page.locator('textarea[name="issuers"]').fill('Fugro N.V.\nASML Holding N.V.');
    await page.getByLabel('in my digest').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').waitFor();
    await expect(page.getByRole('status').textContent()).resolves.toContain('Saved');
    await expectFits(page, 375);
    const saved = await app.ctx.subscribers.get(ann.id);
    expect(saved?.watch.issuers).toEqual(['Fugro N.V.', 'ASML Holding N.V.']);
    expect(saved?.prefs.mode).toBe('digest');
    expect(saved?.watch.holders).toEqual(['Marshall Wace LLP']);
    expect((await app.ctx.subscribers.audit(ann.id, 1))[0]).toMatchObject({ action: 'edited', via: 'link' });
    await page.context().close();
  });

  it('on a desk screen (1280 px): fits, pauses, and refuses an edit made over a newer one', {
    timeout: 60_000,
  }, async () => {
    const first = await openPage(1280);
    const second = await openPage(1280);
    await expectFits(first, 1280);
    await picture(first, join(OUT, 'me-1280.png'));
    await first.getByLabel('Pause all alerts').check();
    await first.getByRole('button', { name: 'Save' }).click();
    await first.getByRole('status').waitFor();
    expect((await app.ctx.subscribers.get(ann.id))?.prefs.paused).toBe(true);
    await expect(first.getByText('paused', { exact: true }).isVisible()).resolves.toBe(true);

    // The second tab still shows the version before the pause: its save is refused, nothing lost.
    await second.locator('textarea[name="holders"]').fill('');
    await second.getByRole('button', { name: 'Save' }).click();
    await second.locator('.notice.bad').waitFor();
    await expect(second.locator('.notice.bad').textContent()).resolves.toContain('changed since it was read');
    const kept = await app.ctx.subscribers.get(ann.id);
    expect(kept?.watch.holders).toEqual(['Marshall Wace LLP']);
    expect(kept?.prefs.paused).toBe(true);
    await first.context().close();
    await second.context().close();
  });
});
