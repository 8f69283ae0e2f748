import { formatKeyPath } from "./config-error.js";
import { FILE_SECRET_KEYS } from "./schema.js";
const PLACEHOLDER = /\$\$|\$\{([^}]*)\}/g;
function interpolate(root, env, readText) {
  const context = { env, readText, issues: [], unresolved: [] };
  const value = walk(root, [], context);
  return { value, issues: context.issues, unresolved: context.unresolved };
}
function walk(node, path, context) {
  if (typeof node === "string") return substitute(node, path, context);
  if (Array.isArray(node)) return node.map((item, index) => walk(item, [...path, index], context));
  if (node !== null && typeof node === "object") {
    const out = {};
    for (const [key, value] of Object.entries(node)) out[key] = walk(value, [...path, key], context);
    return resolveFileKeys(out, path, context);
  }
  return node;
}
function substitute(text, path, context) {
  return text.replace(PLACEHOLDER, (whole, expression) => {
    if (whole === "$$") return "$";
    const expr = (expression ?? "").trim();
    if (expr.startsWith("file:")) return readSecretFile(expr.slice(5), path, context) ?? "";
    const [name = "", fallback] = splitDefault(expr);
    const value = context.env[name];
    if (value !== void 0 && value !== "") return value;
    if (fallback !== void 0) return fallback;
    context.issues.push({
      path: formatKeyPath(path),
      message: `environment variable ${name} is not set`,
      variable: name
    });
    context.unresolved.push(path);
    return "";
  });
}
function splitDefault(expr) {
  const at = expr.indexOf(":-");
  return at === -1 ? [expr, void 0] : [expr.slice(0, at), expr.slice(at + 2)];
}
function readSecretFile(file, path, context) {
  try {
    return context.readText(file).replace(/\r?\n$/, "");
  } catch (error) {
    const reason = error instanceof Error && "code" in error ? String(error.code) : "unreadable";
    context.issues.push({ path: formatKeyPath(path), message: `cannot read file ${file} (${reason})` });
    context.unresolved.push(path);
    return void 0;
  }
}
function resolveFileKeys(node, path, context) {
  for (const key of FILE_SECRET_KEYS) {
    const fileKey = `${key}File`;
    const file = node[fileKey];
    if (file === void 0) continue;
    if (node[key] !== void 0) {
      context.issues.push({
        path: formatKeyPath([...path, fileKey]),
        message: `set either ${key} or ${fileKey}, not both`
      });
    } else if (typeof file !== "string") {
      context.issues.push({ path: formatKeyPath([...path, fileKey]), message: "must be a file path" });
    } else {
      const text = readSecretFile(file, [...path, fileKey], context);
      if (text === void 0) context.unresolved.push([...path, key]);
      node[key] = text ?? "";
    }
    delete node[fileKey];
  }
  return node;
}
export {
  interpolate
};
