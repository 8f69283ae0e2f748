import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local stand-in for the regulators' sites: one file per path, replaced at will, served with an ETag. */
export interface RegisterServer {
  /** The address of `path` (e.g. `/afm.csv`). */
  url(path: string): string;
  /** Serves `body` at `path` from now on (status 200 unless given: an error page may come with 200). */
  serve(path: string, body: Buffer | string, status?: number): void;
  /**
   * Serves a w2ui reply (`{"status","total","records"}`, KNF's JSON API) a page at a time: a POST whose
   * form field `request` asks `limit` records from `offset` gets those, with the whole total.
   */
  servePaged(path: string, reply: Buffer | string): void;
  /** Holds every answer to `path` from now until `release()` (a slow register), counting those waiting. */
  hold(path: string): { waiting(): number; release(): void };
  /** Requests answered per path, and how many of them were 304s. */
  hits(path: string): { all: number; notModified: number };
  close(): Promise<void>;
}

/** Starts the stand-in on 127.0.0.1; a conditional GET whose `If-None-Match` matches is answered 304. */
export async function startRegisterServer(): Promise<RegisterServer> {
  const files = new Map<string, { body: Buffer; status: number; etag: string; paged?: boolean }>();
  const counts = new Map<string, { all: number; notModified: number }>();
  const held = new Map<string, Array<() => void>>();
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    const waiting = held.get(path);
    if (waiting !== undefined) {
      waiting.push(() => answer(path, request, response));
      return;
    }
    answer(path, request, response);
  });
  const answer = (path: string, request: IncomingMessage, response: ServerResponse): void => {
    const count = counts.get(path) ?? { all: 0, notModified: 0 };
    counts.set(path, { ...count, all: count.all + 1 });
    const file = files.get(path);
    if (file === undefined) {
      response.writeHead(404).end();
      return;
    }
    if (file.paged) {
      void answerPage(request, response, file.body);
      return;
    }
    if (request.headers['if-none-match'] === file.etag) {
      counts.set(path, { all: count.all + 1, notModified: count.notModified + 1 });
      response.writeHead(304, { etag: file.etag }).end();
      return;
    }
    response.writeHead(file.status, { etag: file.etag, 'content-length': file.body.length });
    response.end(file.body);
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const serve = (path: string, body: Buffer | string, status = 200): void => {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const etag = `"${createHash('sha256').update(bytes).update(String(status)).digest('hex').slice(0, 16)}"`;
    files.set(path, { body: bytes, status, etag });
  };
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    serve,
    servePaged(path, reply) {
      serve(path, reply);
      const file = files.get(path);
      if (file !== undefined) file.paged = true;
    },
    hold(path) {
      const waiting: Array<() => void> = [];
      held.set(path, waiting);
      return {
        waiting: () => waiting.length,
        release() {
          held.delete(path);
          for (const resume of waiting.splice(0)) resume();
        },
      };
    },
    hits: (path) => counts.get(path) ?? { all: 0, notModified: 0 },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One page of a w2ui reply, as the `request` form field of the POST asks it. */
async function answerPage(request: IncomingMessage, response: ServerResponse, body: Buffer): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(Buffer.from(chunk));
  const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  const asked = JSON.parse(form.get('request') ?? '{}') as { limit?: number; offset?: number };
  const reply = JSON.parse(body.toString('utf8')) as { records: unknown[] };
  const offset = asked.offset ?? 0;
  const page = { ...reply, records: reply.records.slice(offset, offset + (asked.limit ?? 100)) };
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page));
}
