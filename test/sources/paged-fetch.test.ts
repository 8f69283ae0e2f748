import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSourceSchema } from '../../src/config/schema/sources.js';
import { readSource } from '../../src/sources/read-source.js';
import { registerBytes } from '../helpers/register-fixtures.js';

// A stand-in for KNF's JSON API and FIN-FSA's DataTables endpoint: each POST is recorded with its form,
// and answered by `answer`, which the test sets.
interface Asked {
  method: string;
  form: URLSearchParams;
  requestedWith: string | undefined;
}
let asked: Asked[] = [];
let answer: (request: { limit: number; offset: number }, form: URLSearchParams) => string = () => '';
let server: Server;
let url: string;

async function formOf(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(Buffer.from(chunk));
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void formOf(req).then((form) => {
      const requestedWith = req.headers['x-requested-with'];
      asked.push({
        method: req.method ?? '',
        form,
        requestedWith: typeof requestedWith === 'string' ? requestedWith : undefined,
      });
      const page = JSON.parse(form.get('request') ?? '{"limit":0,"offset":0}') as {
        limit: number;
        offset: number;
      };
      res.writeHead(200).end(answer(page, form));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rss_pub/JSON`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const HISTORY = JSON.parse(registerBytes('poland/rss_pub-RssHTable.json').toString('utf8')) as {
  total: number;
  records: unknown[];
};

/** KNF answering pages of its 30-record history, `total` as given. */
function pages(total = HISTORY.total) {
  return ({ limit, offset }: { limit: number; offset: number }) =>
    JSON.stringify({ status: 'success', total, records: HISTORY.records.slice(offset, offset + limit) });
}

function knf(pageSize: number) {
  return registerSourceSchema.parse({ name: 'knf', kind: 'pl-knf-json-history', url, fetch: { pageSize } });
}

describe("KNF's JSON API, asked page by page", () => {
  it('asks `RssHTable` in pages of `fetch.pageSize` until the total and reads the whole register', async () => {
    asked = [];
    answer = pages();
    const read = await readSource(knf(12), undefined);
    expect(read.status).toBe('read');
    if (read.status !== 'read') return;
    expect(read.snapshot.rows).toBe(30);
    const requests = asked.map((a) => JSON.parse(a.form.get('request') ?? '{}'));
    expect(requests.map((r) => [r.method, r.limit, r.offset])).toEqual([
      ['RssHTable', 12, 0],
      ['RssHTable', 12, 12],
      ['RssHTable', 12, 24],
    ]);
    expect(asked.every((a) => a.method === 'POST' && a.requestedWith === 'XMLHttpRequest')).toBe(true);
  });

  it('refuses a total that moves between pages, and an empty page short of the total, as truncated', async () => {
    let calls = 0;
    answer = (page) => {
      calls++;
      return pages(calls === 1 ? 30 : 31)(page);
    };
    expect(await readSource(knf(20), undefined)).toMatchObject({
      status: 'not-read',
      reason: 'truncated',
      detail: 'the total moved from 30 to 31 between pages',
    });
    answer = ({ offset }) => pages(40)({ limit: offset === 0 ? 30 : 0, offset });
    expect(await readSource(knf(30), undefined)).toMatchObject({
      status: 'not-read',
      reason: 'truncated',
      detail: 'page 2 is empty at 30 of 40 records',
    });
  });

  it('hands an error page met while paging to the health check: not read, never the pages before it', async () => {
    const error = registerBytes('poland/shortsellings-current.htm').toString('utf8');
    answer = (page) => (page.offset === 0 ? pages()(page) : error);
    expect(await readSource(knf(20), undefined)).toMatchObject({ status: 'not-read', reason: 'html-page' });
  });
});

describe("FIN-FSA's DataTables endpoint", () => {
  it('is asked by one form POST with the columns of its export, and read', async () => {
    asked = [];
    answer = () => registerBytes('finland/current.json').toString('utf8');
    const source = registerSourceSchema.parse({ name: 'fi', kind: 'fi-fsa-current', url });
    const read = await readSource(source, undefined);
    expect(read).toMatchObject({ status: 'read', snapshot: { rows: 6 } });
    expect(asked).toHaveLength(1);
    const form = asked[0]?.form;
    expect([form?.get('draw'), form?.get('start'), form?.get('length'), form?.get('lang')]).toEqual([
      '1',
      '0',
      '1000',
      'en',
    ]);
    expect(form?.get('exportOptions[columnData][isinCode]')).toBe('ISIN');
  });
});
