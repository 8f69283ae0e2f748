import { type Agent, request } from 'undici';
import { z } from 'zod';

/**
 * What the methods used answer: `ok`, an error code when not, the posted message's `ts`, the user
 * `users.lookupByEmail` found and the conversation `conversations.open` opened (an object there, the
 * conversation's id in `chat.postMessage`'s answer).
 */
const apiAnswer = z.looseObject({
  ok: z.boolean(),
  error: z.string().optional(),
  ts: z.string().optional(),
  user: z.looseObject({ id: z.string() }).optional(),
  channel: z.union([z.string(), z.looseObject({ id: z.string() })]).optional(),
});

/** One Web API answer: the HTTP status, the headers a caller reads, and the body when it was JSON. */
export interface WebApiAnswer {
  status: number;
  retryAfter: string | string[] | undefined;
  date: string | string[] | undefined;
  /** `x-oauth-scopes`: the scopes the token carries, comma-separated. */
  scopes: string | undefined;
  body: z.infer<typeof apiAnswer> | undefined;
}

// Web API answers are small; anything longer is not one and is not read further.
const MAX_BODY_BYTES = 64 * 1024;

// Slack's read methods take form fields, not JSON (a JSON body's `email` is not read): the string args so.
const FORM_METHODS = new Set(['users.lookupByEmail']);

function encode(method: string, args: Record<string, unknown>): { body: string; type: string } {
  if (!FORM_METHODS.has(method))
    return { body: JSON.stringify(args), type: 'application/json; charset=utf-8' };
  const fields = Object.entries(args).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );
  return { body: new URLSearchParams(fields).toString(), type: 'application/x-www-form-urlencoded' };
}

/** Where Web API calls go: the base URL, the bot token, the connection pool. */
export interface WebApiTarget {
  apiUrl: string;
  token: string;
  agent: Agent;
}

/** Calls one Web API method with the bot token as bearer; a transport failure throws. */
export async function callWebApi(
  at: WebApiTarget,
  method: string,
  args: Record<string, unknown>,
): Promise<WebApiAnswer> {
  const { body, type } = encode(method, args);
  const response = await request(`${at.apiUrl}/${method}`, {
    method: 'POST',
    body,
    headers: {
      authorization: `Bearer ${at.token}`,
      'content-type': type,
      'user-agent': 'shortwatch',
    },
    dispatcher: at.agent,
  });
  const text = await readCapped(response.body);
  const scopes = response.headers['x-oauth-scopes'];
  return {
    status: response.statusCode,
    retryAfter: response.headers['retry-after'],
    date: response.headers.date,
    scopes: typeof scopes === 'string' ? scopes : undefined,
    body: parseAnswer(text),
  };
}

function parseAnswer(text: string): WebApiAnswer['body'] {
  try {
    return apiAnswer.safeParse(JSON.parse(text)).data;
  } catch {
    return undefined;
  }
}

async function readCapped(body: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.from(chunk);
    size += buffer.length;
    if (size > MAX_BODY_BYTES) break;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
