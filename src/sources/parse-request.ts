import { z } from 'zod';
import { REGISTER_KINDS } from '../config/schema/sources.js';
import { type ReadOutcome, readRegister } from './health.js';
import { REGISTER_READERS } from './registers.js';
import { checkShape } from './shape-bound.js';

/** What the parsing worker is handed: one fetched file, its register, the checks and the caps. */
export const parseRequestSchema = z.object({
  kind: z.enum(REGISTER_KINDS),
  bytes: z.custom<Uint8Array>((value) => value instanceof Uint8Array),
  lastRows: z.number().int().min(0).optional(),
  mayEmpty: z.boolean(),
  minShrinkRatio: z.number(),
  shrinkFloor: z.number(),
  maxCells: z.number().int(),
  maxLineBytes: z.number().int(),
  maxUnpackedBytes: z.number().int(),
});

/** One file to parse, as the worker receives it. */
export type ParseRequest = z.infer<typeof parseRequestSchema>;

/**
 * The register's reader behind the caps on the bytes, then the health checks: what the worker runs, and
 * what an in-thread read (the benchmark's baseline) runs. An HTML page is still told as one before any
 * cap. Never throws.
 */
export function readChecked(request: ParseRequest): ReadOutcome {
  const reader = REGISTER_READERS[request.kind];
  // The reader's own flags (an HTML register reads its page itself) stay; only its read is capped.
  const capped = {
    ...reader,
    read: (bytes: Uint8Array) => {
      checkShape(bytes, request);
      return reader.read(bytes);
    },
  };
  return readRegister(capped, request.bytes, {
    ...request,
    lastGood: request.lastRows === undefined ? undefined : { rows: request.lastRows },
  });
}
