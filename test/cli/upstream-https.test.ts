import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runShortwatch } from '../e2e/harness.js';

const KEY = 'sk-cli-https-key-51d0';

// A real server on a non-loopback address of this machine: what the key would reach across a network.
const remoteAddress = Object.values(networkInterfaces())
  .flat()
  .find((nic) => nic && nic.family === 'IPv4' && !nic.internal)?.address;

describe.skipIf(remoteAddress === undefined)('CLI upstream commands and a non-loopback http URL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shortwatch-https-'));
  const configFile = join(dir, 'shortwatch.yaml');
  const requests: (string | undefined)[] = [];
  let server: Server;

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [], last_updated: null }));
    });
    await new Promise<void>((resolve) => server.listen(0, remoteAddress, resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    writeFileSync(
      configFile,
      stringify({
        upstream: { baseUrl: `http://${remoteAddress}:${address.port}`, apiKey: KEY },
        watchlist: [{ id: 'ISS-0001' }],
      }),
    );
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['issuers', ['issuers']],
    ['positions', ['positions', 'ISS-0001']],
    ['check', ['check']],
  ])('`shortwatch %s` exits 2 naming upstream.baseUrl, and sends nothing', async (_name, args) => {
    const result = await runShortwatch(['-c', configFile, ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('upstream.baseUrl: must be https://');
    expect(result.stderr).toContain('upstream.allowInsecureHttp');
    expect(`${result.stdout}${result.stderr}`).not.toContain(KEY);
    expect(requests).toEqual([]);
  });
});
