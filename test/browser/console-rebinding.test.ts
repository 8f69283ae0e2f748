import { mkdirSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { createConsole } from '../../src/console/handler.js';
import { chromiumPath, launchChromium } from '../../src/demo/headless-chromium.js';
import { startHttpServer } from '../../src/ops/http-server.js';
import { type Stack, startStack, updateConfig } from '../e2e/harness.js';
import { CHROMIUM_NOTE, SKIP_WITHOUT_CHROMIUM } from './needs-chromium.js';
import { picture } from './pictures.js';

// Another site against the console, in a real browser. Chromium resolves `rebound.test` and `evil.example`
// to 127.0.0.1 (a host-resolver rule), so a page at http://rebound.test:<port>/ is another origin that
// reaches this machine: what a DNS-rebinding page is once its name points at loopback. PNGs of what each
// test checks land in demo-out/console-rebinding/ (gitignored).
const OUT = join('demo-out', 'console-rebinding');
const TOKEN = 'rebinding-token-7d41c0-e2f9a56b1c8d307f';
const MUTE = 'Rebound Capital LLP';

let stack: Stack;
let app: App;
let consoleServer: Server;
let rebinder: Server;
let browser: Browser;
let context: BrowserContext;
let base = '';
let rebound = '';

/**
 * The attacker's page, served at rebound.test: its script reads the console's mutes page at its own
 * origin (the name now points at loopback), takes the CSRF token from it and posts a 30-day mute.
 */
const ATTACK = `<!doctype html><title>rebound</title><h1>Rebound page</h1><pre id="out">running</pre><script>
(async () => {
  const lines = [];
  try {
    const page = await fetch('/mutes');
    const text = await page.text();
    const csrf = (/name="csrf" value="([^"]+)"/.exec(text) || [])[1] || '';
    lines.push('read /mutes: ' + page.status + (csrf ? ' csrf=' + csrf : ' no csrf'));
    const body = new URLSearchParams({ csrf, scope: 'holder', target: '${MUTE}', for: '30d', channel: '' });
    const post = await fetch('/mutes', { method: 'POST', body, redirect: 'manual' });
    lines.push('POST /mutes: ' + post.status);
  } catch (error) {
    lines.push('failed: ' + error);
  }
  document.getElementById('out').textContent = lines.join('\\n');
})();
</script>`;

/** A plain cross-site form that posts a mute to the console's own address as soon as it loads. */
function csrfForm(target: string): string {
  return `<!doctype html><title>form</title><form id="f" method="post" action="${target}/mutes">
<input name="scope" value="holder"><input name="target" value="${MUTE}"><input name="for" value="30d"><input name="csrf" value="guess"></form>
<script>document.getElementById('f').submit();</script>`;
}

/**
 * The rebinding stand-in: `/attack` and `/form` are the attacker's pages; every other path is passed to the
 * console unchanged (its `Host` still rebound.test:<port>), as the rebound name would reach it.
 */
function startRebinder(consolePort: number): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url === '/attack' || req.url === '/form') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(req.url === '/attack' ? ATTACK : csrfForm(base));
      return;
    }
    const upstream = request(
      { host: '127.0.0.1', port: consolePort, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function shoot(page: Page, name: string): Promise<void> {
  await picture(page, join(OUT, `${name}.png`));
}

const mutes = async () => (await app.ctx.mutes.list()).map((m) => m.target);

beforeAll(async () => {
  if (SKIP_WITHOUT_CHROMIUM) return;
  const path = chromiumPath();
  if (!path) throw new Error('no chromium on PATH: apt-get install -y chromium (as .ci/run does)');
  mkdirSync(OUT, { recursive: true });
  stack = await startStack({ issuers: 2, channels: ['console'] });
  updateConfig(stack, (config) => ({ ...config, http: { port: 0, host: '127.0.0.1' } }));
  app = await stack.openApp();
  const started = await startHttpServer(app, 0, '127.0.0.1', createConsole(app));
  consoleServer = started.server;
  base = `http://127.0.0.1:${started.port}`;
  rebinder = await startRebinder(started.port);
  rebound = `http://rebound.test:${(rebinder.address() as AddressInfo).port}`;
  browser = await launchChromium(path, [
    '--host-resolver-rules=MAP rebound.test 127.0.0.1, MAP evil.example 127.0.0.1',
  ]);
  context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (rebinder ? rebinder.close(() => resolve()) : resolve()));
  await new Promise<void>((resolve) => (consoleServer ? consoleServer.close(() => resolve()) : resolve()));
  await app?.stop(2_000);
  await stack?.cleanup();
});

describe.skipIf(SKIP_WITHOUT_CHROMIUM)(
  `another site against the console in headless Chromium${CHROMIUM_NOTE}`,
  () => {
    it('a page served from a rebound name can neither read the token-less console nor post to it', async () => {
      const page = await context.newPage();
      await page.goto(`${rebound}/attack`);
      await expect.poll(() => page.locator('#out').textContent()).not.toBe('running');
      const out = (await page.locator('#out').textContent()) ?? '';
      await shoot(page, 'rebound-page');
      expect(out).toContain('read /mutes: 421 no csrf');
      expect(out).toContain('POST /mutes: 421');
      // Opened directly, the console through the rebound name is refused too.
      const direct = await page.goto(`${rebound}/mutes`);
      expect(direct?.status()).toBe(421);
      await shoot(page, 'rebound-console');
      expect(await mutes()).toEqual([]);
      await page.close();
    });

    it('a cross-site form posted to the console address is refused', async () => {
      const page = await context.newPage();
      // The console was visited first, so the browser holds its session cookie (SameSite keeps it home).
      await page.goto(`${base}/mutes`);
      const response = page.waitForResponse(
        (r) => r.url() === `${base}/mutes` && r.request().method() === 'POST',
      );
      await page.goto(`${rebound}/form`);
      expect((await response).status()).toBe(403);
      await page.waitForLoadState();
      expect(await page.locator('main').textContent()).toContain('came from another site');
      await shoot(page, 'cross-site-form');
      expect(await mutes()).toEqual([]);
      await page.close();
    });

    it('with a token: an open-redirect sign-in stays on the console, and a signed-out cookie is refused', async () => {
      updateConfig(stack, (config) => ({
        ...config,
        http: { port: 0, host: '127.0.0.1', auth: { token: TOKEN } },
      }));
      await app.reload(loadConfig(stack.configPath), { workerOnly: false });
      const page = await context.newPage();
      await page.goto(`${base}/login?next=/%09/evil.example`);
      await page.locator('input[name=token]').fill(TOKEN);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${base}/`);
      expect(await page.locator('h1').textContent()).toBe('Overview');
      await shoot(page, 'signed-in-stays-home');

      const signedIn = (await context.cookies(base)).find((c) => c.name === 'sw_auth');
      expect(signedIn?.httpOnly).toBe(true);
      expect(signedIn?.sameSite).toBe('Strict');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${base}/login?next=%2F`);
      expect((await context.cookies(base)).some((c) => c.name === 'sw_auth')).toBe(false);
      // The copy kept from before the sign-out, put back: the console no longer knows it.
      if (signedIn) await context.addCookies([signedIn]);
      const replayed = await page.goto(`${base}/mutes`);
      expect(new URL(page.url()).pathname).toBe('/login');
      expect(replayed?.status()).toBe(200);
      expect(await page.locator('input[name=token]').count()).toBe(1);
      await shoot(page, 'replayed-cookie-refused');
      await page.close();
    });
  },
);
