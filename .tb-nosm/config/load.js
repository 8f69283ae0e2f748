import { readFileSync } from "node:fs";
import { isMap, isNode, isScalar, LineCounter, parseDocument } from "yaml";
import { ConfigError, formatKeyPath } from "./config-error.js";
import { interpolate } from "./interpolate.js";
import { closestKey, keysAt } from "./known-keys.js";
import { configSchema } from "./schema.js";
function configPath(flag, env) {
  return flag ?? env.SHORTWATCH_CONFIG ?? "config/shortwatch.yaml";
}
function parseConfig(text, source, env = process.env, readText = (path) => readFileSync(path, "utf8"), setAside = (interpolated) => interpolated) {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { prettyErrors: true, lineCounter });
  if (document.errors.length > 0) throw new ConfigError(source, document.errors.map(yamlIssue));
  const raw = document.toJS() ?? {};
  const { value, issues, unresolved } = setAside(interpolate(raw, env, readText));
  const result = configSchema.safeParse(value);
  const repeats = repeatsOf(unresolved);
  const schemaIssues = result.success ? [] : result.error.issues.filter((issue) => !repeats(issue)).flatMap((issue) => describeIssue(issue, { document, lineCounter, raw }));
  const all = [...issues, ...schemaIssues];
  if (all.length > 0 || !result.success) throw new ConfigError(source, all);
  return result.data;
}
function loadConfig(path, env = process.env, setAside) {
  let text;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = error instanceof Error && "code" in error ? String(error.code) : "unreadable";
    throw new ConfigError(path, [{ path: "", message: `cannot read the config file (${code})` }]);
  }
  return parseConfig(text, path, env, void 0, setAside);
}
function repeatsOf(unresolved) {
  const blanks = new Set(unresolved.map(formatKeyPath));
  const holders = new Set(unresolved.map((path) => formatKeyPath(path.slice(0, -1))));
  return (issue) => {
    const path = formatKeyPath(issue.path);
    return blanks.has(path) || issue.code === "custom" && holders.has(path);
  };
}
function yamlIssue(error) {
  const message = error.message.replace(/ at line \d+, column \d+:/, ":").trimEnd();
  const line = error.linePos?.[0].line;
  return { path: "", message: `YAML: ${message}`, ...line === void 0 ? {} : { line } };
}
function keyLine(file, path, key) {
  const node = path.length === 0 ? file.document.contents : file.document.getIn(path, true);
  if (!isMap(node)) return void 0;
  const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === key);
  const offset = isScalar(pair?.key) ? pair.key.range?.[0] : void 0;
  return offset === void 0 ? void 0 : file.lineCounter.linePos(offset).line;
}
function unknownKey(file, path, key) {
  const meant = closestKey(key, keysAt(configSchema, path, file.raw));
  const line = keyLine(file, path, key);
  return {
    path: formatKeyPath([...path, key]),
    message: meant === void 0 ? "unknown key" : `unknown key (did you mean ${meant}?)`,
    ...line === void 0 ? {} : { line }
  };
}
function describeIssue(issue, file) {
  if (issue.code === "unrecognized_keys" && issue.keys) {
    return issue.keys.map((key) => unknownKey(file, issue.path, key));
  }
  const message = issue.message.endsWith("received undefined") ? "is required" : issue.message;
  const line = valueLine(file, issue.path);
  return [{ path: formatKeyPath(issue.path), message, ...line === void 0 ? {} : { line } }];
}
function valueLine(file, path) {
  const last = path.at(-1);
  if (typeof last === "string") return keyLine(file, path.slice(0, -1), last);
  const node = path.length === 0 ? void 0 : file.document.getIn(path, true);
  const offset = isNode(node) ? node.range?.[0] : void 0;
  return offset === void 0 ? void 0 : file.lineCounter.linePos(offset).line;
}
export {
  configPath,
  loadConfig,
  parseConfig
};
