import type { Writable } from 'node:stream';
import { type Logger, pino } from 'pino';
import { PinoPretty } from 'pino-pretty';
import { redactText } from '../config/secret.js';

export type { Logger } from 'pino';

/** How the logger writes. */
export interface LoggerOptions {
  level: string;
  format: 'auto' | 'json' | 'pretty';
  /**
   * Every secret value of the config: scrubbed from each line as a last line of defence. Read at each
   * line, so a live set (a reload adds the new config's secrets to it) is followed.
   */
  secrets: Iterable<string>;
  /** Where lines go; stdout by default. */
  destination?: Writable;
  /** Whether the destination is a terminal (for `format: auto`). */
  isTTY?: boolean;
}

/** A pino logger that writes JSON (or pretty lines on a terminal) and never lets a secret through. */
export function createLogger(options: LoggerOptions): Logger {
  // Lines are JSON by the time they are scrubbed: a secret holding `"`, `\` or a control character
  // appears there escaped, so its escaped form is scrubbed too.
  const secrets = () => [...options.secrets].flatMap(jsonForms);
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
      hooks: { streamWrite: (line: string) => redactText(line, secrets()) },
      serializers: { err: DETAILED_LEVELS.has(options.level) ? pino.stdSerializers.err : briefError },
    },
    destination,
  );
}

/** Levels at which an error is logged with its stack; above them, a routine failure is one short line. */
const DETAILED_LEVELS = new Set(['debug', 'trace']);

/**
 * An error as a warn or error line carries it: its type, message (causes included) and context (status,
 * code…), without the stack, which tells an operator nothing about an upstream 500 or a Slack 503 and
 * turns one failure into 25 lines. `log.level: debug` shows stacks.
 */
function briefError(error: Error): Record<string, unknown> {
  const { stack: _stack, ...rest } = pino.stdSerializers.err(error);
  return rest;
}

/** A secret as it may appear inside a JSON line: escaped (when that differs) and as is. */
function jsonForms(secret: string): string[] {
  const escaped = JSON.stringify(secret).slice(1, -1);
  return escaped === secret ? [secret] : [escaped, secret];
}

/** A logger that writes nothing, for commands and tests that need one. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
