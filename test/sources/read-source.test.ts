import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aggregateEventsSchema, registerSourceSchema } from '../../src/config/schema/sources.js';
import { diffAggregates } from '../../src/sources/aggregate-diff.js';
import { readSource } from '../../src/sources/read-source.js';
import type { LastRead, RegisterSnapshot } from '../../src/sources/types.js';
import {
  HEXAGON_LEI,
  SWEDEN_AGGREGATE_FIXTURE,
  SWEDEN_FIXTURE,
  swedenAggregateChanged,
} from '../e2e/register-changes.js';
import { LEGACY_FIXTURE, legacyEmptied } from '../e2e/register-changes-named.js';
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

describe('readSource: Sweden read as a pair (positions and the aggregate file)', () => {
  // A stand-in for FI: two paths, a body and an ETag each; it records what each request asked.
  const files = new Map<string, { body: Buffer; etag: string }>();
  const asked: string[] = [];
  let fi: Server;
  let base: string;
  beforeAll(async () => {
    fi = createServer((req, res) => {
      const file = files.get(req.url ?? '');
      const conditional = req.headers['if-none-match'] !== undefined;
      asked.push(`${req.url} ${conditional ? 'conditional' : 'whole'}`);
      if (file === undefined) return void res.writeHead(404).end();
      if (req.headers['if-none-match'] === file.etag) return void res.writeHead(304).end();
      res.writeHead(200, { etag: file.etag }).end(file.body);
    });
    await new Promise<void>((resolve) => fi.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(fi.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    fi.closeAllConnections();
    await new Promise<void>((resolve) => fi.close(() => resolve()));
  });

  it('joins the two files, asks both conditionally, and fetches the unchanged one whole when the other changed', async () => {
    const source = registerSourceSchema.parse({
      name: 'fi',
      kind: 'se-fi-current',
      url: `${base}/positions.ods`,
      aggregateUrl: `${base}/aggregate.ods`,
    });
    files.set('/positions.ods', { body: registerBytes(SWEDEN_FIXTURE), etag: '"p1"' });
    files.set('/aggregate.ods', { body: registerBytes(SWEDEN_AGGREGATE_FIXTURE), etag: '"a1"' });
    const first = await readSource(source, undefined);
    if (first.status !== 'read') throw new Error(`first read: ${JSON.stringify(first)}`);
    expect(first.last).toEqual({
      validators: { etag: '"p1"' },
      rows: 162,
      companion: { validators: { etag: '"a1"' }, rows: 414 },
    });
    const skf = first.snapshot.issuers.find((i) => i.key === 'SE0000108227');
    expect([skf?.aggregate?.percent, skf?.positions.length]).toEqual([4.87, 2]);

    asked.length = 0;
    expect(await readSource(source, first.last, { previous: first.snapshot })).toEqual({
      status: 'not-modified',
    });
    expect(asked.sort()).toEqual(['/aggregate.ods conditional', '/positions.ods conditional']);

    asked.length = 0;
    files.set('/aggregate.ods', { body: swedenAggregateChanged(), etag: '"a2"' });
    const second = await readSource(source, first.last, { previous: first.snapshot });
    if (second.status !== 'read') throw new Error(`second read: ${JSON.stringify(second)}`);
    expect(asked.sort()).toEqual([
      '/aggregate.ods conditional',
      '/positions.ods conditional',
      '/positions.ods whole',
    ]);
    expect(second.last.companion?.validators).toEqual({ etag: '"a2"' });
    const hexagon = second.snapshot.issuers.find((i) => i.lei === HEXAGON_LEI);
    expect(hexagon?.aggregate?.percent).toBe(2.05);
    expect(second.snapshot.issuers.find((i) => i.key === 'SE0000108227')?.positions).toHaveLength(2);
  });

  it('refuses the read, naming the aggregate file, when only that file is broken', async () => {
    const source = registerSourceSchema.parse({
      name: 'fi',
      kind: 'se-fi-current',
      url: `${base}/positions.ods`,
      aggregateUrl: `${base}/aggregate.ods`,
    });
    files.set('/positions.ods', { body: registerBytes(SWEDEN_FIXTURE), etag: '"p1"' });
    files.set('/aggregate.ods', { body: Buffer.from('<html><body>Underhåll</body></html>'), etag: '"x"' });
    const outcome = await readSource(source, undefined);
    expect(outcome).toMatchObject({ status: 'not-read', reason: 'html-page' });
    expect((outcome as { detail: string }).detail).toMatch(/^the aggregate file: /);
  });

  it('refuses aggregateUrl on a register that has no aggregate file to join, naming the key', () => {
    const parsed = registerSourceSchema.safeParse({
      name: 'afm',
      kind: 'afm-current',
      url: `${base}/afm.csv`,
      aggregateUrl: `${base}/aggregate.ods`,
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['aggregateUrl']);
  });
});

describe('readSource: a register past its last day of named holders', () => {
  it('reads a workbook that emptied out after namedHoldersUntil, and refuses it as shrank before', async () => {
    const source = registerSourceSchema.parse({
      name: 'fcalegacy',
      kind: 'uk-legacy-holders',
      url,
      regimeBoundary: { namedHoldersUntil: '2026-07-12' },
    });
    serve(registerBytes(LEGACY_FIXTURE), 'full');
    const first = await readSource(source, undefined);
    if (first.status !== 'read') throw new Error(`first read: ${JSON.stringify(first)}`);
    expect(first.last.rows).toBeGreaterThan(100);
    serve(legacyEmptied(), 'empty');
    const before = await readSource(source, first.last, { now: new Date('2026-07-12T18:00:00Z') });
    expect(before).toMatchObject({ status: 'not-read', reason: 'shrank' });
    const after = await readSource(source, first.last, { now: new Date('2026-07-13T08:00:00Z') });
    expect(after).toMatchObject({ status: 'read', snapshot: { rows: 0, issuers: [] } });
  });
});
