import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the stand-in received. */
export interface CapturedSlackPost {
  path: string;
  payload: unknown;
  receivedAt: Date;
  /** The status the stand-in answered with. */
  status: number;
}

/** A scripted answer, used once, before the stand-in goes back to `200 ok`. */
export interface ScriptedSlackReply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** Slack answers 200; Teams Workflows 202 Accepted. */
const accepted = (status: number) => status >= 200 && status < 300;

/** A local stand-in for Slack incoming webhooks: records what it receives, answers as scripted. */
export interface SlackCapture {
  url: string;
  posts: CapturedSlackPost[];
  /** Only the posts answered 2xx. */
  delivered(): CapturedSlackPost[];
  script(...replies: ScriptedSlackReply[]): void;
  close(): Promise<void>;
}

/**
 * Starts the stand-in on 127.0.0.1; `onPost` sees each delivered payload (the demo writes it to disk).
 * `replyTo` decides the reply to a request nothing is scripted for (default `200 ok`): a Teams stand-in
 * answers 202, or 413 to a body over its size limit.
 */
export async function startSlackCapture(
  options: {
    port?: number;
    onPost?: (post: CapturedSlackPost) => void;
    replyTo?: (body: Buffer) => ScriptedSlackReply;
  } = {},
): Promise<SlackCapture> {
  const posts: CapturedSlackPost[] = [];
  const scripted: ScriptedSlackReply[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const reply = scripted.shift() ??
        options.replyTo?.(Buffer.concat(chunks)) ?? { status: 200, body: 'ok' };
      let payload: unknown;
      try {
        payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        payload = Buffer.concat(chunks).toString('utf8');
      }
      const post = { path: request.url ?? '/', payload, receivedAt: new Date(), status: reply.status };
      posts.push(post);
      const answer = () => {
        response.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
        response.end(reply.body ?? (reply.status === 200 ? 'ok' : 'error'));
        if (accepted(reply.status)) options.onPost?.(post);
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/services/T000/B000/demo`,
    posts,
    delivered: () => posts.filter((p) => accepted(p.status)),
    script: (...replies) => scripted.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
