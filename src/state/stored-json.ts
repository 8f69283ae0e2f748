import type { z } from 'zod';

/**
 * A JSON value read from Redis, through its schema. Text that is not JSON (a damaged or foreign record)
 * is checked as `undefined`, which no stored record's schema accepts: every store reads bytes one way,
 * and a caller tells "absent or unreadable" from a record by `success` alone.
 */
export function parseStored<T>(
  raw: string | null | undefined,
  schema: z.ZodType<T>,
): z.ZodSafeParseResult<T> {
  return schema.safeParse(jsonOrUndefined(raw));
}

/** {@link parseStored}'s record, or undefined when it is absent or unreadable. */
export function readStored<T>(raw: string | null | undefined, schema: z.ZodType<T>): T | undefined {
  return parseStored(raw, schema).data;
}

function jsonOrUndefined(raw: string | null | undefined): unknown {
  if (raw === null || raw === undefined) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
