import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messageSchema } from '../../src/channels/message-schema.js';
import { DELIVERY_HEADER } from '../../src/channels/webhook/render.js';
import type { PositionEvent } from '../../src/positions/types.js';

/** One POST the receiver answered. */
export interface WebhookReceipt {
  at: number;
  /** The idempotency key shortwatch sends; the same on every attempt of one delivery. */
  deliveryId: string | undefined;
  body: string;
  status: number;
}

/** A scripted answer, used once, before the receiver goes back to 200. */
export interface ScriptedHookReply {
  status: number;
  delayMs?: number;
}

/**
 * A webhook consumer as a real one would be written: it records every POST, and one whose delivery id
 * it has already accepted is acknowledged and dropped (`repeats`), so a resend after a crash is harmless.
 */
export interface WebhookReceiver {
  url: string;
  /** Every POST answered, repeats and failures included. */
  receipts: WebhookReceipt[];
  /** Accepted POSTs, one per delivery id. */
  accepted(): WebhookReceipt[];
  /** Accepted (2xx) POSTs whose delivery id had already been accepted. */
  repeats(): WebhookReceipt[];
  script(...replies: ScriptedHookReply[]): void;
  close(): Promise<void>;
}

/** Starts the receiver on 127.0.0.1, port 0. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receipts: WebhookReceipt[] = [];
  const scripted: ScriptedHookReply[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const reply = scripted.shift() ?? { status: 200 };
      const header = request.headers[DELIVERY_HEADER];
      receipts.push({
        at: Date.now(),
        deliveryId: typeof header === 'string' ? header : undefined,
        body: Buffer.concat(chunks).toString('utf8'),
        status: reply.status,
      });
      const answer = () => {
        response.writeHead(reply.status, { 'content-type': 'text/plain' });
        response.end(reply.status < 300 ? 'ok' : 'error');
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const ok = () => receipts.filter((r) => r.status >= 200 && r.status < 300);
  const split = () => {
    const seen = new Set<string>();
    const first: WebhookReceipt[] = [];
    const again: WebhookReceipt[] = [];
    for (const receipt of ok()) {
      const key = receipt.deliveryId ?? `no-id-${receipts.indexOf(receipt)}`;
      (seen.has(key) ? again : first).push(receipt);
      seen.add(key);
    }
    return { first, again };
  };
  return {
    url: `http://127.0.0.1:${port}/hooks/shortwatch`,
    receipts,
    accepted: () => split().first,
    repeats: () => split().again,
    script: (...replies) => scripted.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The events of every webhook call accepted (once per delivery id), in arrival order. */
export function acceptedEvents(hook: WebhookReceiver): PositionEvent[] {
  return hook.accepted().flatMap((receipt) => {
    const message = messageSchema.parse(JSON.parse(receipt.body));
    if (message.type === 'events') return message.events;
    if (message.type === 'batch') return message.groups.flatMap((g) => g.events);
    return [];
  });
}
