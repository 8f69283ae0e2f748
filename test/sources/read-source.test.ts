import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aggregateEventsSchema, registerSourceSchema } from '../../src/config/schema/sources.js';
import { diffAggregates } from '../../src/sources/aggregate-diff.js';
import { readSource } from '../../src/sources/read-source.js';
import type { LastRead, RegisterSnapshot } from '../../src/sources/types.js';
import { registerBytes } from '../helpers/register-fixtures.js';

// A stand-in for the FCA: serves whichever body the test sets, with an ETag per body.
let body: Buffer = Buffer.alloc(0);
let etag = '"0"';
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.headers['if-none-match'] === etag) return void res.writeHead(304).end();
    res.writeHead(200, { etag, 'content-type': 'text/csv' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/aggregated-current-net-short-positions.csv`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function serve(next: Buffer, tag: string): void {
  body = next;
  etag = `"${tag}"`;
}

describe('readSource: the UK ANSP served, changed, broken and unchanged', () => {
  it('reads, diffs, refuses an HTML page without losing its place, and costs a 304 when nothing changed', async () => {
    const source = registerSourceSchema.parse({ name: 'fca', kind: 'uk-ansp-current', url });
    const config = aggregateEventsSchema.parse({});

    serve(registerBytes('uk/aggregated-current-net-short-positions.2026-07-13.csv'), 'a');
    const first = await readSource(source, undefined);
    if (first.status !== 'read') throw new Error(`first read: ${first.status}`);
    expect(first.last).toEqual({ validators: { etag: '"a"' }, rows: 6 });

    serve(Buffer.from('<!doctype html><html><body>Sorry</body></html>'), 'err');
    const broken = await readSource(source, first.last);
    expect(broken).toMatchObject({ status: 'not-read', reason: 'html-page' });

    serve(registerBytes('uk/aggregated-current-net-short-positions.2026-09-15.csv'), 'b');
    const second = await readSource(source, first.last);
    if (second.status !== 'read') throw new Error(`second read: ${second.status}`);
    const kinds = diffAggregates(first.snapshot, second.snapshot, config).map(
      (e) => `${e.kind} ${e.issuer.key}`,
    );
    expect(kinds).toContain('aggregate-ended GI000A0F6407');
    expect(kinds).toContain('aggregate-entered GB00B5N0P849');
    expect(kinds).toContain('aggregate-changed GB00BF8Q6K64');

    expect(await readSource(source, second.last)).toEqual({ status: 'not-modified' });
  });

  it('refuses a file that shrank by half against the last good read', async () => {
    const source = registerSourceSchema.parse({
      name: 'fca',
      kind: 'uk-ansp-current',
      url,
      fetch: { shrinkFloor: 4 },
    });
    const lines = registerBytes('uk/aggregated-current-net-short-positions.2026-09-15.csv')
      .toString()
      .split('\n');
    serve(Buffer.from(lines.slice(0, 4).join('\n')), 'half');
    const last: LastRead = { validators: { etag: '"b"' }, rows: 6 };
    expect(await readSource(source, last)).toMatchObject({ status: 'not-read', reason: 'shrank' });
  });

  it('names a server that is down', async () => {
    const source = registerSourceSchema.parse({
      name: 'fca',
      kind: 'uk-ansp-current',
      url: 'http://127.0.0.1:1/x.csv',
    });
    const outcome = await readSource(source, undefined);
    expect(outcome).toMatchObject({ status: 'not-read', reason: 'transport' });
    expect((outcome as { snapshot?: RegisterSnapshot }).snapshot).toBeUndefined();
  });
});
