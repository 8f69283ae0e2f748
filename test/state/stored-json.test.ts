import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseStored, readStored } from '../../src/state/stored-json.js';

const record = z.object({ until: z.number() });

describe('readStored: a value read from Redis through its schema', () => {
  it.each<[string, string | null | undefined, { until: number } | undefined]>([
    ['a record of the schema', '{"until":5}', { until: 5 }],
    ['absent (a missing field or key)', null, undefined],
    ['absent (a missing hash field in a pipeline)', undefined, undefined],
    ['text that is not JSON', '{"until":', undefined],
    ['JSON of another shape', '{"until":"soon"}', undefined],
    ['JSON null', 'null', undefined],
  ])('%s', (_name, raw, expected) => {
    expect(readStored(raw, record)).toEqual(expected);
    expect(parseStored(raw, record).success).toBe(expected !== undefined);
  });
});
