import type { Readable } from 'node:stream';

/** A body read whole, or the sign that it was longer than allowed (the stream is then destroyed). */
export type LimitedBody = { complete: true; bytes: Buffer } | { complete: false };

/**
 * Reads a response body, counting bytes as they arrive so a body without content-length cannot exceed
 * `limit`. Stream errors (resets, timeouts) propagate.
 */
export async function readLimited(body: Readable, limit: number): Promise<LimitedBody> {
  const chunks: Buffer[] = [];
  let total = 0;
  const source: AsyncIterable<unknown> = body;
  for await (const chunk of source) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    total += buffer.length;
    if (total > limit) {
      body.destroy();
      return { complete: false };
    }
    chunks.push(buffer);
  }
  return { complete: true, bytes: Buffer.concat(chunks, total) };
}

/** A declared content-length above `limit`, so the body need not be read at all. */
export function declaresTooLarge(contentLength: string | string[] | undefined, limit: number): boolean {
  if (typeof contentLength !== 'string' || !/^\d+$/.test(contentLength.trim())) return false;
  return Number(contentLength) > limit;
}
