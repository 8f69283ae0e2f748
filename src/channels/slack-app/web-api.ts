import { type Agent, request } from 'undici';
import { z } from 'zod';

/** What every Web API method answers: `ok`, an error code when not, and the posted message's `ts`. */
const apiAnswer = z.looseObject({
  ok: z.boolean(),
  error: z.string().optional(),
  ts: z.string().optional(),
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

/** Calls one Web API method with a JSON body and the bot token as bearer; a transport failure throws. */
export async function callWebApi(
  at: { apiUrl: string; token: string; agent: Agent },
  method: string,
  args: Record<string, unknown>,
): Promise<WebApiAnswer> {
  const response = await request(`${at.apiUrl}/${method}`, {
    method: 'POST',
    body: JSON.stringify(args),
    headers: {
      authorization: `Bearer ${at.token}`,
      'content-type': 'application/json; charset=utf-8',
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
