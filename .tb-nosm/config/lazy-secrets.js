import { ConfigError, formatKeyPath, isConfigError } from "./config-error.js";
import { loadConfig } from "./load.js";
import { FILE_SECRET_KEYS } from "./schema.js";
import { Secret } from "./secret.js";
import { UnresolvedSecret } from "./unresolved-secret.js";
const STAND_IN = `whsec_${Buffer.alloc(24).toString("base64")}`;
const SECRET_KEYS = new Set(FILE_SECRET_KEYS);
function loadConfigWithLazySecrets(path, env = process.env) {
  const unread = [];
  let interpolation = [];
  let config;
  try {
    config = loadConfig(path, env, (interpolated) => {
      interpolation = interpolated.issues;
      return setAsideUnreadSecrets(interpolated, unread);
    });
  } catch (error) {
    if (!isConfigError(error) || unread.length === 0) throw error;
    const rest = error.issues.filter((issue) => !interpolation.includes(issue));
    throw new ConfigError(path, [...interpolation, ...rest]);
  }
  const notSecrets = unread.filter(
    (secret) => !replaceAt(
      config,
      secret.path,
      (current) => current instanceof Secret ? new UnresolvedSecret(path, secret.problems) : void 0
    )
  );
  if (notSecrets.length > 0)
    throw new ConfigError(
      path,
      notSecrets.flatMap((s) => s.problems)
    );
  return config;
}
function setAsideUnreadSecrets(interpolated, unread) {
  const { value, issues, unresolved } = interpolated;
  const setAside = /* @__PURE__ */ new Set();
  for (const path of unresolved) {
    const at = formatKeyPath(path);
    if (!SECRET_KEYS.has(path.at(-1) ?? "") || setAside.has(at)) continue;
    const problems = issues.filter((issue) => issue.path === at || issue.path === `${at}File`);
    if (problems.length === 0) continue;
    if (!replaceAt(value, path, (current) => typeof current === "string" ? STAND_IN : void 0)) continue;
    setAside.add(at);
    unread.push({ path, problems });
  }
  const explained = new Set(unread.flatMap((secret) => secret.problems));
  return {
    value,
    issues: issues.filter((issue) => !explained.has(issue)),
    unresolved: unresolved.filter((path) => {
      const at = formatKeyPath(path);
      return !setAside.has(at) && !setAside.has(at.replace(/File$/, ""));
    })
  };
}
function replaceAt(root, path, replace) {
  const key = path.at(-1);
  const parent = path.slice(0, -1).reduce((node, step) => childOf(node, step), root);
  if (key === void 0) return false;
  const next = replace(childOf(parent, key));
  if (next === void 0) return false;
  if (Array.isArray(parent) && typeof key === "number") parent[key] = next;
  else if (isRecord(parent) && typeof key === "string") parent[key] = next;
  else return false;
  return true;
}
function childOf(node, key) {
  if (Array.isArray(node) && typeof key === "number") return node[key];
  if (isRecord(node) && typeof key === "string") return node[key];
  return void 0;
}
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Secret);
}
export {
  loadConfigWithLazySecrets
};
