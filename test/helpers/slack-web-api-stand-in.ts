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

/** A message as the stand-in holds it: its payload (as last edited), where, its ts, its thread's parent. */
export type StoredMessage = SlackPayload & {
  channel: string;
  ts: string;
  thread_ts?: string;
  edits: number;
  /** The message metadata posted with it (`{event_type, event_payload}`), if any. */
  metadata?: unknown;
  /** A reply posted with `reply_broadcast: true`: Slack shows it in the conversation too (`thread_broadcast`). */
  subtype?: 'thread_broadcast';
};

/** A per-method limit: at most `max` calls in any `windowMs`; more get a 429 with Retry-After. */
export interface MethodLimit {
  max: number;
  windowMs: number;
}

type Answer = Required<ScriptedAnswer>;

function ok(body: Record<string, unknown>, headers: Record<string, string> = {}): Answer {
  return { status: 200, headers, body: { ok: true, ...body } };
}

function refused(error: string): Answer {
  return { status: 200, headers: {}, body: { ok: false, error } };
}

/** A request's arguments: JSON, or form fields (Slack's read methods take those). */
function parseArgs(req: IncomingMessage, text: string): Record<string, unknown> {
  if ((req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
    return Object.fromEntries(new URLSearchParams(text));
  return JSON.parse(text || '{}');
}

/**
 * A local stand-in for Slack's Web API: `auth.test` answers with the scopes it is given in
 * `x-oauth-scopes`; `chat.postMessage` refuses a bad token, a channel it does not know, a `thread_ts` that is
 * no top-level message of that channel (`thread_not_found`), a `reply_broadcast` that is not a boolean or
 * not on a reply (`invalid_arguments`) and blocks past Block Kit's limits (`invalid_blocks`), and gives each
 * message a `ts` (a broadcast reply is stored with the `thread_broadcast` subtype); `chat.update` edits a
 * message it has (else `message_not_found`) unless its edit window is closed (`closeEditWindow`:
 * `edit_window_closed`); `users.lookupByEmail` (form fields) finds the users it is given,
 * `conversations.open` opens a `D…` DM.
 * Each method may have a limit (`limit`), enforced per method with a 429 and Retry-After; a script answers first.
 */
export class SlackWebApiStandIn {
  readonly calls: WebApiCall[] = [];
  readonly posted: StoredMessage[] = [];
  /** Calls refused with a 429, by method. */
  readonly limited = new Map<string, number>();
  scopes = 'chat:write';
  /** E-mail → user id, for `users.lookupByEmail`. */
  readonly users = new Map<string, string>();
  /**
   * Awaited once a call has had its effect (a message stored, an edit applied) and before its answer is
   * written: what a test does at the moment Slack accepted a call whose answer the sender has not read.
   */
  beforeAnswer: ((call: WebApiCall, answer: ScriptedAnswer) => Promise<void> | void) | undefined;
  private readonly known: Set<string>;
  private readonly closedForEdits = new Set<string>();
  private readonly limits = new Map<string, MethodLimit>();
  private readonly recent = new Map<string, number[]>();
  private readonly scripts = new Map<string, ScriptedAnswer[]>();
  private server: Server | undefined;
  private seq = 0;

  constructor(
    readonly token: string,
    channels: readonly string[],
  ) {
    this.known = new Set(channels);
  }

  /** Queues an answer for the next call of `method`. */
  script(method: string, answer: ScriptedAnswer): void {
    const list = this.scripts.get(method) ?? [];
    list.push(answer);
    this.scripts.set(method, list);
  }

  /** Limits `method` to `max` calls in any `windowMs`. */
  limit(method: string, limit: MethodLimit): void {
    this.limits.set(method, limit);
  }

  /** From now on `chat.update` of this message answers `edit_window_closed`. */
  closeEditWindow(ts: string): void {
    this.closedForEdits.add(ts);
  }

  /** Top-level messages (thread parents and lone messages) in posting order. */
  parents(): StoredMessage[] {
    return this.posted.filter((m) => m.thread_ts === undefined);
  }

  /** Replies in the thread of `ts`. */
  replies(ts: string): StoredMessage[] {
    return this.posted.filter((m) => m.thread_ts === ts);
  }

  /** Clears what was received (calls, messages, counts), keeping users, limits and scopes. */
  reset(): void {
    this.calls.length = 0;
    this.posted.length = 0;
    this.limited.clear();
    this.recent.clear();
    this.closedForEdits.clear();
  }

  /** Starts listening on a free loopback port; returns the `apiUrl` to configure. */
  async start(port = 0): Promise<string> {
    const server = createServer((req, res) => {
      void this.handle(req).then(({ status, headers, body }) =>
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body)),
      );
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    return `http://127.0.0.1:${address.port}/api`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private async handle(req: IncomingMessage): Promise<Answer> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(Buffer.from(chunk));
    const method = (req.url ?? '').replace(/^\/api\//, '');
    const token = req.headers.authorization?.replace(/^Bearer /, '');
    const args = parseArgs(req, Buffer.concat(chunks).toString('utf8'));
    this.calls.push({ method, token, args });
    const scripted = this.scripts.get(method)?.shift();
    if (scripted) return { status: 200, headers: {}, ...scripted };
    const limited = this.overLimit(method);
    if (limited) return limited;
    if (token !== this.token) return refused('invalid_auth');
    const answer = this.answer(method, args);
    await this.beforeAnswer?.({ method, token, args }, answer);
    return answer;
  }

  private answer(method: string, args: Record<string, unknown>): Answer {
    switch (method) {
      case 'auth.test':
        return ok({ user_id: 'UBOT' }, { 'x-oauth-scopes': this.scopes });
      case 'chat.postMessage':
        return this.post(args);
      case 'chat.update':
        return this.update(args);
      case 'users.lookupByEmail': {
        const id = typeof args.email === 'string' ? this.users.get(args.email) : undefined;
        return id === undefined ? refused('users_not_found') : ok({ user: { id } });
      }
      case 'conversations.open': {
        if (typeof args.users !== 'string' || ![...this.users.values()].includes(args.users))
          return refused('user_not_found');
        const id = `D${args.users}`;
        this.known.add(id);
        return ok({ channel: { id } });
      }
      default:
        return refused('unknown_method');
    }
  }

  /** A 429 when `method` is past its limit in the window ending now; the call counts only when let through. */
  private overLimit(method: string): Answer | undefined {
    const limit = this.limits.get(method);
    if (!limit) return undefined;
    const now = Date.now();
    const recent = (this.recent.get(method) ?? []).filter((at) => now - at < limit.windowMs);
    this.recent.set(method, recent);
    const [oldest] = recent;
    if (recent.length < limit.max || oldest === undefined) {
      recent.push(now);
      return undefined;
    }
    this.limited.set(method, (this.limited.get(method) ?? 0) + 1);
    const seconds = Math.max(1, Math.ceil((oldest + limit.windowMs - now) / 1000));
    return {
      status: 429,
      headers: { 'retry-after': String(seconds) },
      body: { ok: false, error: 'ratelimited' },
    };
  }

  private payloadOf(args: Record<string, unknown>): SlackPayload | undefined {
    const { text, blocks } = args;
    const payload = { text, blocks } as SlackPayload;
    return typeof text === 'string' && Array.isArray(blocks) && withinLimits(payload) ? payload : undefined;
  }

  private post(args: Record<string, unknown>): Answer {
    const { channel, thread_ts, reply_broadcast } = args;
    if (typeof channel !== 'string' || !this.known.has(channel)) return refused('channel_not_found');
    // A broadcast is of a reply: anything but a boolean, or one without `thread_ts`, is a sender's bug.
    if (reply_broadcast !== undefined && (typeof reply_broadcast !== 'boolean' || thread_ts === undefined))
      return refused('invalid_arguments');
    if (
      thread_ts !== undefined &&
      !this.posted.some((m) => m.ts === thread_ts && m.channel === channel && m.thread_ts === undefined)
    )
      return refused('thread_not_found');
    const payload = this.payloadOf(args);
    if (!payload) return refused('invalid_blocks');
    this.seq += 1;
    const ts = `1700000000.${String(this.seq).padStart(6, '0')}`;
    const thread = typeof thread_ts === 'string' ? { thread_ts } : {};
    const metadata = args.metadata === undefined ? {} : { metadata: args.metadata };
    const broadcast = reply_broadcast === true ? { subtype: 'thread_broadcast' as const } : {};
    this.posted.push({ ...payload, channel, ts, ...thread, ...metadata, ...broadcast, edits: 0 });
    return ok({ channel, ts });
  }

  private update(args: Record<string, unknown>): Answer {
    const message = this.posted.find((m) => m.ts === args.ts && m.channel === args.channel);
    if (!message) return refused('message_not_found');
    if (this.closedForEdits.has(message.ts)) return refused('edit_window_closed');
    const payload = this.payloadOf(args);
    if (!payload) return refused('invalid_blocks');
    Object.assign(message, payload, { edits: message.edits + 1 });
    return ok({ channel: message.channel, ts: message.ts });
  }
}
