import type { z } from 'zod';
import { editDistance } from '../text/edit-distance.js';

// An unknown key is nearly always a typo of a key the schema takes at that place (`fliter` for
// `filter`). The schema is the one list of keys, so the suggestion is read from it, never kept beside it.

type Schema = z.core.$ZodType;

/** The schema a wrapper (optional, default, a preprocess step…) stands for. */
function unwrap(schema: Schema): Schema {
  const def = schema._zod.def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return unwrap((def as z.core.$ZodOptionalDef).innerType);
    case 'pipe': {
      const pipe = def as z.core.$ZodPipeDef;
      // A preprocess step is a transform in front of the schema that holds the keys.
      return unwrap(pipe.in._zod.def.type === 'transform' ? pipe.out : pipe.in);
    }
    case 'lazy':
      return unwrap((def as z.core.$ZodLazyDef).getter());
    default:
      return schema;
  }
}

/** Whether an object variant of a union may be the one `value` was meant for: its literal tags agree. */
function fits(shape: Record<string, Schema>, value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.entries(shape).every(([key, field]) => {
    const inner = unwrap(field)._zod.def;
    if (inner.type !== 'literal' || !(key in value)) return true;
    return (inner as z.core.$ZodLiteralDef<z.core.util.Literal>).values.includes(
      (value as Record<string, z.core.util.Literal>)[key] as z.core.util.Literal,
    );
  });
}

/** The object schemas that may hold `value` at this place (several for a union). */
function objectsOf(schema: Schema, value: unknown): Record<string, Schema>[] {
  const inner = unwrap(schema);
  const def = inner._zod.def;
  if (def.type === 'object') return [(def as z.core.$ZodObjectDef).shape];
  if (def.type === 'union') {
    const all = (def as z.core.$ZodUnionDef).options.flatMap((option) => objectsOf(option, value));
    const fitting = all.filter((shape) => fits(shape, value));
    return fitting.length > 0 ? fitting : all;
  }
  if (def.type === 'intersection') {
    const { left, right } = def as z.core.$ZodIntersectionDef;
    return [...objectsOf(left, value), ...objectsOf(right, value)];
  }
  return [];
}

/** The schemas `part` leads to from `schema` (every union variant that has it). */
function step(schema: Schema, part: PropertyKey, value: unknown): Schema[] {
  const inner = unwrap(schema);
  const def = inner._zod.def;
  if (def.type === 'array' && typeof part === 'number') return [(def as z.core.$ZodArrayDef).element];
  if (def.type === 'record') return [(def as z.core.$ZodRecordDef).valueType];
  if (def.type === 'union') {
    return (def as z.core.$ZodUnionDef).options.flatMap((option) => step(option, part, value));
  }
  return objectsOf(inner, value).flatMap((shape) => {
    const field = shape[String(part)];
    return field === undefined ? [] : [field];
  });
}

/** The keys the schema takes at `path` in `root` (the parsed config, to tell union variants apart). */
export function keysAt(schema: Schema, path: readonly PropertyKey[], root: unknown): string[] {
  let schemas = [schema];
  let value = root;
  for (const part of path) {
    schemas = schemas.flatMap((current) => step(current, part, value));
    value =
      typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[part] : undefined;
  }
  const keys = schemas.flatMap((current) => objectsOf(current, value).flatMap((shape) => Object.keys(shape)));
  return [...new Set(keys)];
}

/**
 * The key a misspelt `key` most likely meant among `known`: the nearest by edits (case counting as no
 * edit), at most a third of the key wrong; undefined when none is that close.
 */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  const target = key.toLowerCase();
  const allowed = Math.max(1, Math.floor(target.length / 3));
  let best: { key: string; near: number } | undefined;
  for (const candidate of known) {
    const near = editDistance(target, candidate.toLowerCase());
    if (near <= allowed && (best === undefined || near < best.near)) best = { key: candidate, near };
  }
  return best?.key;
}
