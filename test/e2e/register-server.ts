import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local stand-in for the regulators' sites: one file per path, replaced at will, served with an ETag. */
export interface RegisterServer {
  /** The address of `path` (e.g. `/afm.csv`). */
  url(path: string): string;
  /** Serves `body` at `path` from now on (status 200 unless given: an error page may come with 200). */
  serve(path: string, body: Buffer | string, status?: number): void;
  /** Requests answered per path, and how many of them were 304s. */
  hits(path: string): { all: number; notModified: number };
  close(): Promise<void>;
}

/** Starts the stand-in on 127.0.0.1; a conditional GET whose `If-None-Match` matches is answered 304. */
export async function startRegisterServer(): Promise<RegisterServer> {
  const files = new Map<string, { body: Buffer; status: number; etag: string }>();
  const counts = new Map<string, { all: number; notModified: number }>();
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    const count = counts.get(path) ?? { all: 0, notModified: 0 };
    counts.set(path, { ...count, all: count.all + 1 });
    const file = files.get(path);
    if (file === undefined) {
      response.writeHead(404).end();
      return;
    }
    if (request.headers['if-none-match'] === file.etag) {
      counts.set(path, { all: count.all + 1, notModified: count.notModified + 1 });
      response.writeHead(304, { etag: file.etag }).end();
      return;
    }
    response.writeHead(file.status, { etag: file.etag, 'content-length': file.body.length });
    response.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    serve(path, body, status = 200) {
      const bytes = typeof body === 'string' ? Buffer.from(body) : body;
      const etag = `"${createHash('sha256').update(bytes).update(String(status)).digest('hex').slice(0, 16)}"`;
      files.set(path, { body: bytes, status, etag });
    },
    hits: (path) => counts.get(path) ?? { all: 0, notModified: 0 },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
