import { createServer, type Server } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { describeFailure, EXIT } from '../../src/cli/exit.js';
import { isConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/load.js';
import { Secret } from '../../src/config/secret.js';
import { exposesKeyInClear, isLoopbackHost } from '../../src/config/upstream-url.js';
import { createUpstreamClient } from '../../src/upstream/index.js';

const KEY = 'sk-https-test-key-9f2c';

function configText(baseUrl: string, extra = ''): string {
  return `upstream: { baseUrl: "${baseUrl}", apiKey: "${KEY}"${extra} }`;
}

/** The config's complaints about `upstream.baseUrl`, or [] when it loads. */
function baseUrlIssues(text: string): string[] {
  try {
    parseConfig(text, 'test.yaml', {});
    return [];
  } catch (error) {
    if (!isConfigError(error)) throw error;
    return error.issues.filter((i) => i.path === 'upstream.baseUrl').map((i) => i.message);
  }
}

describe('upstream.baseUrl must be https unless the host is loopback', () => {
  it.each([
    ['https to a remote host', 'https://shorts.example.com/api'],
    ['http to 127.0.0.1', 'http://127.0.0.1:8080'],
    ['http to another 127/8 address', 'http://127.3.2.1:8080'],
    ['http to 127.0.0.1 written in hex (URL parsing canonicalises it)', 'http://0x7f.0.0.1:8080'],
    ['http to localhost', 'http://localhost:8080/api'],
    ['http to LOCALHOST', 'http://LOCALHOST:8080'],
    ['http to ::1', 'http://[::1]:8080'],
    ['http to ::1 written long', 'http://[0:0:0:0:0:0:0:1]:8080'],
  ])('accepts %s', (_name, url) => {
    expect(baseUrlIssues(configText(url))).toEqual([]);
  });

  it.each([
    ['http to a remote name', 'http://shorts.example.com/api'],
    ['http to a private address', 'http://10.0.0.5:8080'],
    ['http to a name that merely starts with 127', 'http://127.0.0.1.example.com'],
    ['http to a name ending in localhost', 'http://evil-localhost:8080'],
    ['http to 0.0.0.0', 'http://0.0.0.0:8080'],
    ['http to an IPv4-mapped IPv6 address', 'http://[::ffff:10.0.0.5]:8080'],
  ])('refuses %s, naming the key and the way out, and exits 2', (_name, url) => {
    const issues = baseUrlIssues(configText(url));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^must be https:\/\/.*upstream\.allowInsecureHttp: true$/);
    try {
      parseConfig(configText(url), 'test.yaml', {});
    } catch (error) {
      const { message, exitCode } = describeFailure(error);
      expect(exitCode).toBe(EXIT.usage);
      expect(message).toContain('upstream.baseUrl: must be https://');
      expect(message).not.toContain(KEY);
    }
  });

  it('accepts plain http to a remote host when upstream.allowInsecureHttp is true', () => {
    const config = parseConfig(
      configText('http://shorts.example.com/api', ', allowInsecureHttp: true'),
      'test.yaml',
      {},
    );
    expect(config.upstream?.allowInsecureHttp).toBe(true);
  });

  it('defaults upstream.allowInsecureHttp to false', () => {
    expect(parseConfig(configText('https://shorts.example.com'), 'test.yaml', {}).upstream).toMatchObject({
      allowInsecureHttp: false,
    });
  });

  it.each([
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['localhost', true],
    ['[::1]', true],
    ['128.0.0.1', false],
    ['::1', false], // URL hostnames keep IPv6 brackets; a bare form never comes from new URL()
    ['localhost.example.com', false],
  ])('isLoopbackHost(%s) is %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });

  it('does not judge an unparsable URL (the schema reports that one)', () => {
    expect(exposesKeyInClear('not a url', false)).toBe(false);
  });
});

// A real server on a non-loopback address of this machine: what the key would reach across a network.
const remoteAddress = Object.values(networkInterfaces())
  .flat()
  .find((nic) => nic && nic.family === 'IPv4' && !nic.internal)?.address;

describe.skipIf(remoteAddress === undefined)('the upstream client and a non-loopback http URL', () => {
  let server: Server | undefined;
  const authorizations: (string | undefined)[] = [];

  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
    authorizations.length = 0;
  });

  async function listen(): Promise<string> {
    const started = createServer((req, res) => {
      authorizations.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [{ svc_issuer_id: 'ISS-1', name: 'Acme' }], last_updated: null }));
    });
    server = started;
    await new Promise<void>((resolve) => started.listen(0, remoteAddress, resolve));
    const address = started.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    return `http://${remoteAddress}:${address.port}`;
  }

  const options = (baseUrl: string) => ({
    baseUrl,
    apiKey: new Secret(KEY),
    timeoutMs: 2_000,
    maxBodyBytes: 64 * 1024,
    retries: 0,
    retryDelayMs: 0,
  });

  it('refuses to be built, so the key is never sent, whoever calls it', async () => {
    const url = await listen();
    expect(() => createUpstreamClient(options(url))).toThrow(/must be https:\/\//);
    expect(() => createUpstreamClient({ ...options(url), allowInsecureHttp: false })).toThrow(TypeError);
    expect(authorizations).toEqual([]);
  });

  it('sends the key there only when allowInsecureHttp is set', async () => {
    const url = await listen();
    const client = createUpstreamClient({ ...options(url), allowInsecureHttp: true });
    try {
      await expect(client.listIssuers()).resolves.toMatchObject({ data: [{ svc_issuer_id: 'ISS-1' }] });
    } finally {
      await client.close();
    }
    expect(authorizations).toEqual([`Bearer ${KEY}`]);
  });
});
