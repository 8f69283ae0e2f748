import type { Writable } from 'node:stream';
import type { ChannelFactory, Message } from '../types.js';

/** One JSON line per message: machine-readable, for pipelines and for trying shortwatch out. */
export function renderConsoleLine(channel: string, message: Message): string {
  return `${JSON.stringify({ channel, ...message })}\n`;
}

/** Builds a console channel writing to `out` (stdout by default). */
export function consoleChannelFactory(out: Writable = process.stdout): ChannelFactory<'console'> {
  return (config) => ({
    async send(message) {
      out.write(renderConsoleLine(config.name, message));
    },
    async verify() {
      return 'console: JSON lines on standard output';
    },
    async close() {},
  });
}
