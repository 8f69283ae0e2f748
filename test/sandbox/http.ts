import type { Sandbox } from '../../src/sandbox/index.js';

/** A finished response, body read as text. */
export interface Fetched {
  status: number;
  headers: Headers;
  text: string;
  json(): unknown;
}

/** GETs (or `method`s) a sandbox path with a bearer key; `key: null` sends no Authorization. */
export async function call(
  sandbox: Sandbox,
  path: string,
  options: { key?: string | null; method?: string; authorization?: string } = {},
): Promise<Fetched> {
  const key = options.key === undefined ? 'sandbox-key' : options.key;
  const headers: Record<string, string> = {};
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  else if (key !== null) headers.authorization = `Bearer ${key}`;
  const response = await fetch(`${sandbox.url}${path}`, { method: options.method ?? 'GET', headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}
