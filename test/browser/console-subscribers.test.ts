import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { subscriberView } from '../../src/console/data/subscriber-views.js';
import { chromiumPath, launchChromium } from '../../src/demo/headless-chromium.js';
import type { CapturedMail } from '../../src/demo/smtp-capture.js';
import type { Subscriber } from '../../src/routing/subscriber.js';
import {
  type DaemonProcess,
  freePort,
  type Stack,
  spawnDaemon,
  startStack,
  stopDaemons,
  waitFor,
} from '../e2e/harness.js';
import { CHROMIUM_NOTE, SKIP_WITHOUT_CHROMIUM } from './needs-chromium.js';
import { picture } from './pictures.js';

// The console's Subscribers pages in a real browser, behind the console's token, against a running
// daemon (a child process) that polled the sandbox and e-mailed a subscriber a change: the list, then a
// subscriber's own page with what they received, on a phone and on a desk's screen.
const OUT = join('demo-out', 'console-subscribers');
const TOKEN = 'console-subscribers-browser-7c1e-40af9d2b';
const SECRET = 'console-subscribers-browser-link-secret-0123';
const HOLDER = 'Ann Watches Capital LLP';

let stack: Stack;
let app: App;
let daemon: DaemonProcess | undefined;
let browser: Browser;
let base = '';
let ann: Subscriber;
let bo: Subscriber;
let issuerName = '';

beforeAll(async () => {
  if (SKIP_WITHOUT_CHROMIUM) return;
  const path = chromiumPath();
  if (!path) throw new Error('no chromium on PATH: apt-get install -y chromium (as .ci/run does)');
  mkdirSync(OUT, { recursive: true });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  stack = await startStack({
    issuers: 3,
    seed: 11,
    config: {
      http: { port, host: '127.0.0.1', auth: { token: TOKEN } },
      subscribers: { email: 'alerts', linkSecret: SECRET, publicUrl: `${base}/` },
    },
  });
  app = await stack.openApp();
  daemon = await spawnDaemon(stack, 'start');
  const ids = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
  await waitFor('baseline snapshots', async () => (await app.ctx.snapshots.getMany(ids)).size === ids.length);
  const [first, second] = stack.sandbox.scenario.issuers();
  if (!first || !second) throw new Error('the scenario has too few issuers');
  issuerName = first.name;
  const desk = { who: 'desk-lead', via: 'cli', from: 'desk-host.example' } as const;
  ann = await app.ctx.subscribers.add(
    {
      name: 'Ann Trader',
      email: 'ann@desk.example',
      watch: {
        issuers: [first.name, 'A very long issuer name that a phone must wrap, not scroll, Holdings plc'],
      },
    },
    desk,
  );
  bo = await app.ctx.subscribers.add(
    {
      name: 'Bo Digest',
      email: 'bo@desk.example',
      webhook: 'https://hooks.desk.example/T0/B0/bo-secret-path',
      slackUser: 'U0BO00001',
      watch: { issuers: [second.name], holders: ['Marshall Wace'] },
      prefs: { mode: 'both', digestSchedule: '0 17 * * 1-5', timezone: 'Europe/London', paused: true },
    },
    desk,
  );
  stack.sandbox.scenario.disclose(first.svc_issuer_id, HOLDER, 0.8);
  const toAnn = (m: CapturedMail) =>
    (m.parsed.text ?? '').includes(HOLDER) && m.raw.includes('ann@desk.example');
  await waitFor("Ann's e-mail", () => stack.smtp.mails.some(toAnn), 30_000);
  await waitFor(
    "Ann's message in the record",
    async () => ((await subscriberView(app, ann.id))?.received.length ?? 0) > 0,
  );
  browser = await launchChromium(path);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (daemon) await stopDaemons([daemon]);
  await app?.stop(2_000);
  await stack?.cleanup();
});

/** A signed-in page at one width, on the Subscribers list (the sign-in sends the operator on to it). */
async function signedIn(width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${base}/subscribers`);
  expect(new URL(page.url()).pathname).toBe('/login');
  await page.locator('input[name=token]').fill(TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/subscribers`);
  return page;
}

async function expectFits(page: Page): Promise<void> {
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  expect(overflow).toBeLessThanOrEqual(0);
}

describe.skipIf(SKIP_WITHOUT_CHROMIUM)(
  `the console's Subscribers pages in headless Chromium${CHROMIUM_NOTE}`,
  () => {
    for (const width of [375, 1280]) {
      it(`at ${width} px: the list, then a subscriber's page with what they received`, {
        timeout: 60_000,
      }, async () => {
        const page = await signedIn(width);
        await expect(page.locator('h1').textContent()).resolves.toBe('Subscribers');
        await expect(page.locator('nav a[aria-current="page"]').textContent()).resolves.toBe('Subscribers');
        const annRow = page.locator(`tr[data-subscriber="${ann.id}"]`);
        await expect(annRow.textContent()).resolves.toMatch(
          new RegExp(
            `Ann Trader.*active.*0 queued · 0 parked.*${issuerName}.*at once.*ann@desk\\.example`,
            's',
          ),
        );
        const boRow = page.locator(`tr[data-subscriber="${bo.id}"]`);
        await expect(boRow.textContent()).resolves.toContain(
          'at once (e-mail, webhook, Slack DM) and digest 0 17 * * 1-5 (Europe/London)',
        );
        expect(await page.content()).not.toContain('bo-secret-path');
        await expect(boRow.textContent()).resolves.toMatch(/paused\s*\d+ s ago/);
        await expect(page.locator('main').textContent()).resolves.toContain(
          '2 subscribers (1 active, 1 paused, 0 unsubscribed)',
        );
        await expectFits(page);
        await picture(page, join(OUT, `subscribers-${width}.png`));

        await page.getByRole('link', { name: 'Ann Trader' }).click();
        await page.waitForURL(`${base}/subscribers/${ann.id}`);
        await expect(page.locator('h1').textContent()).resolves.toBe('Ann Trader');
        const main = (await page.locator('main').textContent()) ?? '';
        expect(main).toContain(issuerName);
        expect(main).toContain('A very long issuer name that a phone must wrap');
        const audit = (await page.locator('#audit').textContent()) ?? '';
        expect(audit).toMatch(/added.*desk-lead.*cli.*desk-host\.example/s);
        // What the daemon sent her, read from the record: her channel, the issuer and the holder she was told of.
        const received = (await page.locator('#record tbody tr').first().textContent()) ?? '';
        expect(received).toContain(`~${ann.id}`);
        expect(received).toContain(issuerName);
        expect(received).toContain(HOLDER);
        expect(received).toContain('ok');
        // The operator's view of her, never a way into her own page: no signed link anywhere on it.
        const markup = await page.content();
        expect(markup).not.toMatch(/\/(me|unsubscribe)\//);
        expect(markup).not.toContain(SECRET);
        await expectFits(page);
        await picture(page, join(OUT, `subscriber-${width}.png`));
        await page.context().close();
      });
    }
  },
);
