import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type SlackPayload, withinLimits } from '../../src/channels/slack/index.js';

/** One call the stand-in received. */
export interface WebApiCall {
  method: string;
  token: string | undefined;
  args: Record<string, unknown>;
}

/** A scripted answer for the next call of a method. */
export interface ScriptedAnswer {
  status?: number;
  headers?: Record<string, string>;
  body: Record<string, unknown>;
}

/**
 * A local stand-in for Slack's Web API: `auth.test` answers with the scopes it is given in
 * `x-oauth-scopes`; `chat.postMessage` refuses a bad token, a channel it does not know and blocks past
 * Block Kit's limits (`invalid_blocks`), and gives each message a `ts`; a script answers first.
 */
export class SlackWebApiStandIn {
  readonly calls: WebApiCall[] = [];
  readonly posted: (SlackPayload & { channel: string; ts: string })[] = [];
  scopes = 'chat:write';
  private readonly scripts = new Map<string, ScriptedAnswer[]>();
  private server: Server | undefined;
  private seq = 0;

  constructor(
    readonly token: string,
    readonly channels: readonly string[],
  ) {}

  /** Queues an answer for the next call of `method`. */
  script(method: string, answer: ScriptedAnswer): void {
    const list = this.scripts.get(method) ?? [];
    list.push(answer);
    this.scripts.set(method, list);
  }

  /** Starts listening on a free loopback port; returns the `apiUrl` to configure. */
  async start(): Promise<string> {
    const server = createServer((req, res) => {
      void this.handle(req).then(({ status, headers, body }) =>
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body)),
      );
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    return `http://127.0.0.1:${address.port}/api`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private async handle(req: IncomingMessage): Promise<Required<ScriptedAnswer>> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(Buffer.from(chunk));
    const method = (req.url ?? '').replace(/^\/api\//, '');
    const token = req.headers.authorization?.replace(/^Bearer /, '');
    const args = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    this.calls.push({ method, token, args });
    const scripted = this.scripts.get(method)?.shift();
    if (scripted) return { status: 200, headers: {}, ...scripted };
    if (token !== this.token) return { status: 200, headers: {}, body: { ok: false, error: 'invalid_auth' } };
    if (method === 'auth.test')
      return { status: 200, headers: { 'x-oauth-scopes': this.scopes }, body: { ok: true, user_id: 'UBOT' } };
    if (method === 'chat.postMessage') return this.post(args);
    return { status: 200, headers: {}, body: { ok: false, error: 'unknown_method' } };
  }

  private post(args: Record<string, unknown>): Required<ScriptedAnswer> {
    const { channel, text, blocks } = args;
    if (typeof channel !== 'string' || !this.channels.includes(channel))
      return { status: 200, headers: {}, body: { ok: false, error: 'channel_not_found' } };
    const payload = { text, blocks } as SlackPayload;
    if (typeof text !== 'string' || !Array.isArray(blocks) || !withinLimits(payload))
      return { status: 200, headers: {}, body: { ok: false, error: 'invalid_blocks' } };
    this.seq += 1;
    const ts = `1700000000.${String(this.seq).padStart(6, '0')}`;
    this.posted.push({ ...payload, channel, ts });
    return { status: 200, headers: {}, body: { ok: true, channel, ts } };
  }
}
