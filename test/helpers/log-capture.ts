import { Writable } from 'node:stream';
import { z } from 'zod';
import { createLogger, type Logger } from '../../src/telemetry/logger.js';

const logLineSchema = z.looseObject({ level: z.number(), msg: z.string() });

/** One JSON log line as pino writes it. */
export type LogLine = z.infer<typeof logLineSchema>;

/** pino's numeric levels. */
export const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 } as const;

/** A real shortwatch logger (JSON, secrets scrubbed) writing into memory. */
export interface LogCapture {
  logger: Logger;
  /** Everything written, as written. */
  text(): string;
  /** Every line, parsed (a line that is not JSON throws: the log must stay machine-readable). */
  lines(): LogLine[];
  /** The lines with this message. */
  withMessage(msg: string): LogLine[];
}

/** Builds a logger at `level` scrubbing `secrets`, whose output the test reads back. */
export function captureLog(secrets: Iterable<string> = [], level = 'debug'): LogCapture {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = createLogger({ level, format: 'json', secrets, destination, isTTY: false });
  const text = () => chunks.join('');
  const lines = () =>
    text()
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => logLineSchema.parse(JSON.parse(line)));
  return { logger, text, lines, withMessage: (msg) => lines().filter((line) => line.msg === msg) };
}
