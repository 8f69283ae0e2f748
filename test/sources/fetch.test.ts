import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerFetchSchema } from '../../src/config/schema/sources.js';
import { isRegisterReadError } from '../../src/sources/errors.js';
import { fetchRegister } from '../../src/sources/fetch.js';
import { registerBytes } from '../helpers/register-fixtures.js';

const AFM = registerBytes('shared:netherlands/nettoshortpositiesactueel.csv');
const ETAG = '"afm-2025-08-12"';
const LAST_MODIFIED = 'Tue, 12 Aug 2025 18:00:00 GMT';

// A stand-in for a register's web server: the AFM file with validators, and the ways a server fails.
const seen: Record<string, string | undefined>[] = [];
function handle(req: IncomingMessage, res: ServerResponse): void {
  seen.push({
    path: req.url,
    ifNoneMatch: req.headers['if-none-match'],
    ifModifiedSince: req.headers['if-modified-since'],
  });
  if (req.url === '/afm.csv') {
    const fresh = req.headers['if-none-match'] === ETAG || req.headers['if-modified-since'] === LAST_MODIFIED;
    if (fresh) return void res.writeHead(304).end();
    return void res
      .writeHead(200, { etag: ETAG, 'last-modified': LAST_MODIFIED, 'content-type': 'text/csv' })
      .end(AFM);
  }
  if (req.url === '/chunked-big') {
    res.writeHead(200, { 'content-type': 'text/csv' });
    res.write(Buffer.alloc(4096, 0x41));
    return void res.end(Buffer.alloc(4096, 0x41));
  }
  if (req.url === '/declared-big')
    return void res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) }).end();
  if (req.url === '/stall') return void res.writeHead(200).write('"Position holder";');
  res.writeHead(503).end('maintenance');
}

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const limits = registerFetchSchema.parse({ timeout: '2s', maxBytes: 5000 * 10 });

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    return isRegisterReadError(error) ? error.reason : String(error);
  }
}

describe('fetchRegister: one conditional GET', () => {
  it('takes the whole file and its validators, then a 304 when sent back', async () => {
    const first = await fetchRegister(`${base}/afm.csv`, {}, limits);
    expect(first.status === 'fetched' && first.bytes.equals(AFM)).toBe(true);
    expect(first.status === 'fetched' && first.validators).toEqual({
      etag: ETAG,
      lastModified: LAST_MODIFIED,
    });
    const again = await fetchRegister(`${base}/afm.csv`, { etag: ETAG, lastModified: LAST_MODIFIED }, limits);
    expect(again).toEqual({ status: 'not-modified' });
    expect(seen.at(-1)).toMatchObject({ ifNoneMatch: ETAG, ifModifiedSince: LAST_MODIFIED });
  });

  it('answers 304 on If-Modified-Since alone', async () => {
    expect(await fetchRegister(`${base}/afm.csv`, { lastModified: LAST_MODIFIED }, limits)).toEqual({
      status: 'not-modified',
    });
  });

  it.each([
    [
      'a body longer than the limit, without content-length',
      '/chunked-big',
      { ...limits, maxBytes: 5000 },
      'too-large',
    ],
    ['a declared content-length over the limit', '/declared-big', limits, 'too-large'],
    ['a body that never ends within the time limit', '/stall', { ...limits, timeout: 300 }, 'timeout'],
    ['a 503', '/down', limits, 'http-status'],
  ])('refuses %s', async (_name, path, fileLimits, reason) => {
    expect(await reasonOf(fetchRegister(`${base}${path}`, {}, fileLimits))).toBe(reason);
  });

  it('names a refused connection a transport failure', async () => {
    expect(await reasonOf(fetchRegister('http://127.0.0.1:1/none', {}, limits))).toBe('transport');
  });
});

describe('registerFetchSchema defaults', () => {
  it('gives every file a time limit and a size limit', () => {
    expect(registerFetchSchema.parse({})).toEqual({
      timeout: 60_000,
      maxBytes: 25 * 1024 * 1024,
      minShrinkRatio: 0.5,
      pageSize: 1000,
      shrinkFloor: 10,
    });
  });
});
