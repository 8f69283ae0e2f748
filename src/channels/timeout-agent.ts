import { Agent } from 'undici';

/** An HTTP agent whose connect, headers and body each time out after `timeoutMs` (a channel's `timeout`). */
export function timeoutAgent(timeoutMs: number): Agent {
  return new Agent({ headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connect: { timeout: timeoutMs } });
}
