import { editDistance } from "../text/edit-distance.js";
function unwrap(schema) {
  const def = schema._zod.def;
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      return unwrap(def.innerType);
    case "pipe": {
      const pipe = def;
      return unwrap(pipe.in._zod.def.type === "transform" ? pipe.out : pipe.in);
    }
    case "lazy":
      return unwrap(def.getter());
    default:
      return schema;
  }
}
function fits(shape, value) {
  if (typeof value !== "object" || value === null) return true;
  return Object.entries(shape).every(([key, field]) => {
    const inner = unwrap(field)._zod.def;
    if (inner.type !== "literal" || !(key in value)) return true;
    return inner.values.includes(
      value[key]
    );
  });
}
function objectsOf(schema, value) {
  const inner = unwrap(schema);
  const def = inner._zod.def;
  if (def.type === "object") return [def.shape];
  if (def.type === "union") {
    const all = def.options.flatMap((option) => objectsOf(option, value));
    const fitting = all.filter((shape) => fits(shape, value));
    return fitting.length > 0 ? fitting : all;
  }
  if (def.type === "intersection") {
    const { left, right } = def;
    return [...objectsOf(left, value), ...objectsOf(right, value)];
  }
  return [];
}
function step(schema, part, value) {
  const inner = unwrap(schema);
  const def = inner._zod.def;
  if (def.type === "array" && typeof part === "number") return [def.element];
  if (def.type === "record") return [def.valueType];
  if (def.type === "union") {
    return def.options.flatMap((option) => step(option, part, value));
  }
  return objectsOf(inner, value).flatMap((shape) => {
    const field = shape[String(part)];
    return field === void 0 ? [] : [field];
  });
}
function keysAt(schema, path, root) {
  let schemas = [schema];
  let value = root;
  for (const part of path) {
    schemas = schemas.flatMap((current) => step(current, part, value));
    value = typeof value === "object" && value !== null ? value[part] : void 0;
  }
  const keys = schemas.flatMap((current) => objectsOf(current, value).flatMap((shape) => Object.keys(shape)));
  return [...new Set(keys)];
}
function closestKey(key, known) {
  const target = key.toLowerCase();
  const allowed = Math.max(1, Math.floor(target.length / 3));
  let best;
  for (const candidate of known) {
    const near = editDistance(target, candidate.toLowerCase());
    if (near <= allowed && (best === void 0 || near < best.near)) best = { key: candidate, near };
  }
  return best?.key;
}
export {
  closestKey,
  keysAt
};
