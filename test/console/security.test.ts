import { request, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { App } from '../../src/app.js';
import { isConfigError } from '../../src/config/config-error.js';
import { loadConfig, parseConfig } from '../../src/config/load.js';
import { createConsole } from '../../src/console/handler.js';
import { startHttpServer } from '../../src/ops/http-server.js';
import { runShortwatch, type Stack, startStack, updateConfig } from '../e2e/harness.js';

const TOKEN = 'console-token-5f2c9a-d4e71b08c3a65f92';

/** A GET naming any `Host` (fetch sets its own): the status and the body. */
function getAs(base: string, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The `name=value` of a `Set-Cookie` line for `name` among a response's, or ''. */
function cookieOf(response: Response, name: string): string {
  return (response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`)) ?? '').split(';')[0] ?? '';
}

/** The config problems of an `http` section (beside a minimal valid config). */
function httpProblems(http: Record<string, unknown>): string[] {
  const text = stringify({
    upstream: { baseUrl: 'https://shorts.example.com/api', apiKey: 'k' },
    watchlist: [{ id: 'ISS-1' }],
    channels: [{ name: 'c', kind: 'console' }],
    http,
  });
  try {
    parseConfig(text, 'test.yaml', {});
    return [];
  } catch (error) {
    if (!isConfigError(error)) throw error;
    return error.issues.map((i) => i.path);
  }
}

describe('binding the console beyond loopback needs http.auth.token', () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    ['the default host (loopback) without a token', { port: 9464 }, []],
    ['127.0.0.1 without a token', { port: 9464, host: '127.0.0.1' }, []],
    ['::1 without a token', { port: 9464, host: '::1' }, []],
    ['localhost without a token', { port: 9464, host: 'localhost' }, []],
    ['0.0.0.0 without a token', { port: 9464, host: '0.0.0.0' }, ['http.auth.token']],
    ['a LAN address without a token', { port: 9464, host: '192.168.1.20' }, ['http.auth.token']],
    ['0.0.0.0 with a token', { port: 9464, host: '0.0.0.0', auth: { token: TOKEN } }, []],
    ['0.0.0.0 with the console off (probes only)', { port: 9464, host: '0.0.0.0', console: false }, []],
    ['0.0.0.0 with no port (the endpoint is off)', { host: '0.0.0.0' }, []],
    [
      'allowed hosts: a name, a name with its port, an IPv6 address',
      {
        port: 9464,
        allowedHosts: ['shortwatch', 'ops.example.com:8443', '[fd00::5]'],
        auth: { token: TOKEN },
      },
      [],
    ],
    [
      'a non-loopback allowed host without a token (published through a proxy)',
      { port: 9464, host: '127.0.0.1', allowedHosts: ['localhost:9464', 'ops.example.com'] },
      ['http.auth.token'],
    ],
    [
      'only loopback allowed hosts without a token',
      { port: 9464, allowedHosts: ['localhost:9464', '[::1]'] },
      [],
    ],
    [
      'a public URL without a token (a proxy in front of 127.0.0.1)',
      { port: 9464, host: '127.0.0.1', publicUrl: 'https://console.example.com/' },
      ['http.auth.token'],
    ],
    [
      'a public URL with the console off',
      { port: 9464, publicUrl: 'https://console.example.com/', console: false },
      [],
    ],
    ['a token of one character', { port: 9464, auth: { token: 'x' } }, ['http.auth.token']],
    ['a token of 31 characters', { port: 9464, auth: { token: TOKEN.slice(0, 31) } }, ['http.auth.token']],
    ['a token of 32 characters', { port: 9464, auth: { token: TOKEN.slice(0, 32) } }, []],
    [
      'a token of one character repeated',
      { port: 9464, auth: { token: 'a'.repeat(40) } },
      ['http.auth.token'],
    ],
    ['trusted proxies by address', { port: 9464, trustedProxies: ['127.0.0.1', '::1', '10.0.0.2'] }, []],
    [
      'a trusted proxy by name',
      { port: 9464, trustedProxies: ['proxy.internal'] },
      ['http.trustedProxies[0]'],
    ],
    [
      'an allowed host written as a URL',
      { port: 9464, allowedHosts: ['https://ops.example.com'], auth: { token: TOKEN } },
      ['http.allowedHosts[0]'],
    ],
    [
      'an allowed host with a path',
      { port: 9464, allowedHosts: ['ok', 'ops.example.com/x'], auth: { token: TOKEN } },
      ['http.allowedHosts[1]'],
    ],
    [
      'an https public URL',
      { port: 9464, publicUrl: 'https://console.example.com/', auth: { token: TOKEN } },
      [],
    ],
    [
      'a public URL of another scheme',
      { port: 9464, publicUrl: 'ftp://console.example.com/', auth: { token: TOKEN } },
      ['http.publicUrl'],
    ],
    ['a session of no time', { port: 9464, auth: { sessionTtl: '0s' } }, ['http.auth.sessionTtl']],
  ])('%s', (_, http, expected) => {
    expect(httpProblems(http)).toEqual(expected);
  });
});

describe('the console over HTTP', () => {
  let stack: Stack | undefined;
  let app: App | undefined;
  let server: Server | undefined;

  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await app?.stop(2_000);
    await stack?.cleanup();
    server = undefined;
    app = undefined;
    stack = undefined;
  });

  it('`shortwatch start` on 0.0.0.0 without a token refuses to start, naming the key, exit 2', async () => {
    stack = await startStack({ issuers: 2, channels: ['console'] });
    updateConfig(stack, (config) => ({ ...config, http: { port: 9464, host: '0.0.0.0' } }));
    const run = await runShortwatch(['-c', stack.configPath, 'start']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('http.auth.token');
    expect(await stack.redis.redis.hlen(stack.keys.workers)).toBe(0);
  }, 30_000);

  async function serve(
    http: Record<string, unknown> = {},
    more: Record<string, unknown> = {},
  ): Promise<string> {
    stack = await startStack({ issuers: 2, channels: ['console'] });
    updateConfig(stack, (config) => ({ ...config, ...more, http: { port: 0, host: '127.0.0.1', ...http } }));
    app = await stack.openApp();
    const started = await startHttpServer(app, 0, '127.0.0.1', createConsole(app));
    server = started.server;
    return `http://127.0.0.1:${started.port}`;
  }

  /** A browser's first visit: its session cookie and the CSRF token the page's forms carry. */
  async function session(base: string, extra: Record<string, string> = {}) {
    const response = await fetch(`${base}/mutes`, { headers: extra });
    expect(response.status).toBe(200);
    const cookie = (response.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const csrf = /name="csrf" value="([^"]+)"/.exec(await response.text())?.[1] ?? '';
    expect(cookie).toMatch(/^sw_session=[0-9a-f]{32}$/);
    expect(csrf).not.toBe('');
    return { cookie, csrf };
  }

  /** A form POST as a browser on the console's page sends it: its Origin unless `headers` say otherwise. */
  function post(base: string, path: string, form: Record<string, string>, headers: Record<string, string>) {
    return fetch(`${base}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base, ...headers },
      body: new URLSearchParams(form).toString(),
    });
  }

  it('refuses a POST without the session CSRF token, or from another origin, and takes it with one', async () => {
    const base = await serve();
    const { cookie, csrf } = await session(base);
    // An issuer of the watchlist: a mute must name what exists (issue 22), and the check is not the point here.
    const issuerId = stack?.sandbox.scenario.issuers()[0]?.svc_issuer_id ?? '';
    const mute = { scope: 'issuer', target: issuerId, for: '1d', channel: '' };
    const mutes = async () => (await app?.ctx.mutes.list())?.map((m) => m.target) ?? [];

    const none = await post(base, '/mutes', mute, { cookie });
    expect(none.status).toBe(403);
    expect(await none.text()).toContain('no valid CSRF token');
    expect((await post(base, '/mutes', { ...mute, csrf: `${csrf}x` }, { cookie })).status).toBe(403);
    // A token is only good with the session cookie it was made for.
    expect((await post(base, '/mutes', { ...mute, csrf }, {})).status).toBe(403);
    const other = await session(base);
    expect((await post(base, '/mutes', { ...mute, csrf: other.csrf }, { cookie })).status).toBe(403);
    const foreign = await post(base, '/mutes', { ...mute, csrf }, { cookie, origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    // A browser always says where a POST comes from: without Origin or Referer it is refused.
    const unsaid = await fetch(`${base}/mutes`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({ ...mute, csrf }).toString(),
    });
    expect(unsaid.status).toBe(403);
    expect(await unsaid.text()).toContain('did not say where it came from');
    expect(await mutes()).toEqual([]);

    const ok = await post(base, '/mutes', { ...mute, csrf }, { cookie, origin: base });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/mutes?done=added');
    expect(await mutes()).toEqual([issuerId]);
  }, 30_000);

  it('keeps the probes open and sends the other pages through its own security headers', async () => {
    const base = await serve();
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/metrics`)).status).toBe(200);
    expect((await fetch(`${base}/nowhere`)).status).toBe(404);
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  }, 30_000);

  it('with http.auth.token: pages ask for it, probes do not, and no page shows it', async () => {
    const base = await serve({ auth: { token: TOKEN } });
    const first = await fetch(`${base}/events?kind=opened`, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/login?next=%2Fevents%3Fkind%3Dopened');
    for (const probe of ['/healthz', '/readyz', '/metrics']) {
      expect([200, 503]).toContain((await fetch(`${base}${probe}`)).status);
    }
    expect((await fetch(`${base}/`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    expect(
      (await fetch(`${base}/`, { headers: { authorization: 'Bearer wrong' }, redirect: 'manual' })).status,
    ).toBe(303);

    const login = await fetch(`${base}/login`);
    const cookie = (login.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const csrf = /name="csrf" value="([^"]+)"/.exec(await login.text())?.[1] ?? '';
    const wrong = await post(base, '/login', { csrf, token: 'nope', next: '/events' }, { cookie });
    expect(wrong.status).toBe(401);
    const right = await post(base, '/login', { csrf, token: TOKEN, next: '/events' }, { cookie });
    expect(right.status).toBe(303);
    expect(right.headers.get('location')).toBe('/events');
    const auth =
      (right.headers.getSetCookie().find((c) => c.startsWith('sw_auth=')) ?? '').split(';')[0] ?? '';
    expect(auth).not.toContain(TOKEN);
    for (const path of ['/', '/issuers', '/holders', '/events', '/deliveries', '/mutes']) {
      const response = await fetch(`${base}${path}`, { headers: { cookie: `${cookie}; ${auth}` } });
      expect(response.status, path).toBe(200);
      const body = await response.text();
      expect(body, path).not.toContain(TOKEN);
      expect(body, path).not.toContain('sandbox-key');
    }
  }, 30_000);

  it('answers 421 to a Host it does not serve (console, /readyz, /metrics), keeps /healthz open, serves http.allowedHosts', async () => {
    // A host beyond loopback publishes the console: it needs its token.
    const base = await serve({ allowedHosts: ['shortwatch'], auth: { token: TOKEN } });
    const port = new URL(base).port;
    for (const path of ['/', '/mutes', '/readyz', '/metrics', '/login', '/nowhere']) {
      const rebound = await getAs(base, path, `rebound.test:${port}`);
      expect(rebound.status, path).toBe(421);
      expect(rebound.body, path).not.toContain('csrf');
    }
    expect((await getAs(base, '/healthz', `rebound.test:${port}`)).status).toBe(200);
    for (const host of [`localhost:${port}`, `[::1]:${port}`, `shortwatch:${port}`, 'shortwatch']) {
      const page = await getAs(base, '/login', host);
      expect(page.status, host).toBe(200);
      expect(page.body, host).toContain('name="csrf"');
    }
    expect((await getAs(base, '/metrics', `shortwatch:${port}`)).status).toBe(200);
  }, 30_000);

  /** Signs in with the token: the CSRF session cookie and the auth cookie (`name=value` each). */
  async function signIn(base: string): Promise<{ cookie: string; auth: string; header: string }> {
    const login = await fetch(`${base}/login`);
    const cookie = cookieOf(login, 'sw_session');
    const csrf = /name="csrf" value="([^"]+)"/.exec(await login.text())?.[1] ?? '';
    const right = await post(base, '/login', { csrf, token: TOKEN, next: '/' }, { cookie });
    expect(right.status).toBe(303);
    const auth = cookieOf(right, 'sw_auth');
    expect(auth).toMatch(/^sw_auth=[A-Za-z0-9_-]{43}$/);
    return { cookie, auth, header: `${cookie}; ${auth}` };
  }

  const status = async (base: string, cookie: string) =>
    (await fetch(`${base}/mutes`, { headers: { cookie }, redirect: 'manual' })).status;

  it('sign-out ends the session in Redis (the cookie replayed is refused); a new token ends every session', async () => {
    const base = await serve({ auth: { token: TOKEN } });
    const first = await signIn(base);
    const second = await signIn(base);
    expect(second.auth).not.toBe(first.auth);
    expect(await status(base, first.header)).toBe(200);
    const csrf = /name="csrf" value="([^"]+)"/.exec(
      await (await fetch(`${base}/mutes`, { headers: { cookie: first.header } })).text(),
    )?.[1];
    const out = await post(base, '/logout', { csrf: csrf ?? '' }, { cookie: first.header });
    expect(out.status).toBe(303);
    expect(out.headers.getSetCookie().join()).toContain(
      'sw_auth=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0',
    );
    // The browser forgot it; a copy of it (stolen, or replayed) is refused all the same.
    expect(await status(base, first.header)).toBe(303);
    expect(await status(base, second.header)).toBe(200);

    const sessionKeys = () => (stack as Stack).redis.redis.keys((stack as Stack).keys.consoleSession('*'));
    expect(await sessionKeys()).toHaveLength(1);
    // Each session expires on its own after http.auth.sessionTtl (12 h by default).
    const [key] = await sessionKeys();
    const ttl = await (stack as Stack).redis.redis.pttl(key ?? '');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(12 * 3_600_000);
    updateConfig(stack as Stack, (config) => ({
      ...config,
      http: { ...(config.http as object), auth: { token: `${TOKEN}-rotated` } },
    }));
    await app?.reload(loadConfig((stack as Stack).configPath), { workerOnly: false });
    expect(await status(base, second.header)).toBe(303);
    // The stale record is gone from Redis once it was presented.
    expect(await (stack as Stack).redis.redis.keys(`${(stack as Stack).prefix}*console:session*`)).toEqual(
      [],
    );
  }, 30_000);

  it('throttles sign-in per address: past http.auth.signInAttempts even the right token is refused (429)', async () => {
    const base = await serve({ auth: { token: TOKEN, signInAttempts: 3 } });
    const login = await fetch(`${base}/login`);
    const cookie = cookieOf(login, 'sw_session');
    const csrf = /name="csrf" value="([^"]+)"/.exec(await login.text())?.[1] ?? '';
    for (let i = 0; i < 3; i++)
      expect((await post(base, '/login', { csrf, token: `guess-${i}` }, { cookie })).status).toBe(401);
    const fourth = await post(base, '/login', { csrf, token: TOKEN }, { cookie });
    expect(fourth.status).toBe(429);
    expect(await fourth.text()).toContain('Too many sign-in attempts');
    expect(cookieOf(fourth, 'sw_auth')).toBe('');
  }, 30_000);

  it('counts wrong Bearer tokens with the sign-in attempts: past them even the right one is refused (429)', async () => {
    const base = await serve({ auth: { token: TOKEN, signInAttempts: 3 } });
    const bearer = (token: string) =>
      fetch(`${base}/`, { headers: { authorization: `Bearer ${token}` }, redirect: 'manual' });
    expect((await bearer(TOKEN)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await bearer(`guess-${i}`)).status).toBe(303);
    const fourth = await bearer(TOKEN);
    expect(fourth.status).toBe(429);
    expect(await fourth.text()).toContain('Too many sign-in attempts');
    // The form shares the count: this address has no attempt left there either.
    const login = await fetch(`${base}/login`);
    const cookie = cookieOf(login, 'sw_session');
    const csrf = /name="csrf" value="([^"]+)"/.exec(await login.text())?.[1] ?? '';
    expect((await post(base, '/login', { csrf, token: TOKEN }, { cookie })).status).toBe(429);
  }, 30_000);

  it('behind a trusted proxy counts attempts by the forwarded address, not the proxy', async () => {
    const base = await serve({ auth: { token: TOKEN, signInAttempts: 2 }, trustedProxies: ['127.0.0.1'] });
    const from = (client: string, token: string) =>
      fetch(`${base}/`, {
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': `203.0.113.9, ${client}` },
        redirect: 'manual',
      });
    for (let i = 0; i < 2; i++) expect((await from('198.51.100.7', `guess-${i}`)).status).toBe(303);
    expect((await from('198.51.100.7', TOKEN)).status).toBe(429);
    // Another client behind the same proxy is not locked out by the guesser.
    expect((await from('198.51.100.8', TOKEN)).status).toBe(200);
  }, 30_000);

  it('ignores X-Forwarded-For from an address that is not a trusted proxy', async () => {
    const base = await serve({ auth: { token: TOKEN, signInAttempts: 2 } });
    const from = (client: string, token: string) =>
      fetch(`${base}/`, {
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': client },
        redirect: 'manual',
      });
    for (let i = 0; i < 2; i++) expect((await from(`198.51.100.${i}`, `guess-${i}`)).status).toBe(303);
    expect((await from('198.51.100.50', TOKEN)).status).toBe(429);
  }, 30_000);

  it('sets Secure on its cookies when http.publicUrl is https, and not on plain loopback', async () => {
    const plain = await serve({ auth: { token: TOKEN } });
    expect((await fetch(`${plain}/login`)).headers.getSetCookie().join()).not.toContain('Secure');
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await app?.stop(2_000);
    await stack?.cleanup();
    const base = await serve({ auth: { token: TOKEN }, publicUrl: 'https://console.example.com/' });
    const login = await fetch(`${base}/login`);
    expect(login.headers.getSetCookie()[0]).toMatch(
      /^sw_session=[0-9a-f]{32}; Path=\/; HttpOnly; SameSite=Strict; Secure$/,
    );
    const { auth } = await signIn(base);
    expect(auth).not.toBe('');
  }, 30_000);

  it('the full-history action asks first, spends 1 request once confirmed, and never the reserve', async () => {
    const base = await serve({}, { budget: { perDay: 1000, reserve: 998 } });
    const { cookie, csrf } = await session(base);
    const issuers = [...(stack as Stack).sandbox.scenario.issuers()];
    await app?.ctx.directory.save(issuers, null, new Date());
    const issuer = issuers[0]?.svc_issuer_id ?? '';
    const path = `/issuers/${encodeURIComponent(issuer)}/history`;
    const used = async () => (await app?.ctx.budget.usage())?.day.used;

    const ask = await post(base, path, { csrf }, { cookie });
    expect(ask.status).toBe(200);
    const asked = await ask.text();
    expect(asked).toContain('This spends <strong>1 upstream request</strong>');
    expect(asked).toContain('name="confirm" value="spend"');
    expect(await used()).toBe(0);

    const loaded = await post(base, path, { csrf, confirm: 'spend' }, { cookie });
    expect(await loaded.text()).toContain('Full history loaded');
    expect(await used()).toBe(1);
    // One request is left beyond the reserve: spent, the next is refused and the reserve stays whole.
    await post(base, path, { csrf, confirm: 'spend' }, { cookie });
    expect(await used()).toBe(2);
    const refused = await (await post(base, path, { csrf, confirm: 'spend' }, { cookie })).text();
    expect(refused).toContain('no request to spare now (reserve');
    expect(await used()).toBe(2);
  }, 30_000);
});
