import type { Writable } from 'node:stream';
import { jsonChannelMessage, stringifyVisible } from '../format.js';
import type { ChannelFactory, Message } from '../types.js';
import { coalesceConsole } from './coalesce.js';

/**
 * One JSON line per message, with the delivery id when there is one, so that a pipeline can drop repeats.
 * Names stay data as on the webhook; no raw control or bidi character reaches the terminal.
 */
export function renderConsoleLine(channel: string, message: Message, deliveryId?: string): string {
  const id = deliveryId === undefined ? {} : { deliveryId };
  return `${stringifyVisible({ channel, ...id, ...jsonChannelMessage(message) })}\n`;
}

/** Builds a console channel writing to `out` (stdout by default). */
export function consoleChannelFactory(out: Writable = process.stdout): ChannelFactory<'console'> {
  return (config) => ({
    async send(message, progress) {
      out.write(renderConsoleLine(config.name, message, progress?.deliveryId));
    },
    coalesce: coalesceConsole,
    async verify() {
      return 'console: JSON lines on standard output';
    },
    async close() {},
  });
}
