import type { Writable } from 'node:stream';
import { type Logger, pino } from 'pino';
import { PinoPretty } from 'pino-pretty';
import { redactText } from '../config/secret.js';

export type { Logger } from 'pino';

/** How the logger writes. */
export interface LoggerOptions {
  level: string;
  format: 'auto' | 'json' | 'pretty';
  /** Every secret value of the config: scrubbed from each line as a last line of defence. */
  secrets: Iterable<string>;
  /** Where lines go; stdout by default. */
  destination?: Writable;
  /** Whether the destination is a terminal (for `format: auto`). */
  isTTY?: boolean;
}

/** A pino logger that writes JSON (or pretty lines on a terminal) and never lets a secret through. */
export function createLogger(options: LoggerOptions): Logger {
  const secrets = [...options.secrets];
  const pretty =
    options.format === 'pretty' || (options.format === 'auto' && (options.isTTY ?? process.stdout.isTTY));
  const base = options.destination ?? process.stdout;
  const destination = pretty
    ? PinoPretty({ destination: base, sync: true, colorize: options.isTTY ?? false, ignore: 'pid,hostname' })
    : base;
  return pino(
    {
      level: options.level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      hooks: { streamWrite: (line: string) => redactText(line, secrets) },
      serializers: { err: pino.stdSerializers.err },
    },
    destination,
  );
}

/** A logger that writes nothing, for commands and tests that need one. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
