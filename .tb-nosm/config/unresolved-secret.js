import { ConfigError } from "./config-error.js";
import { collectSecrets, Secret } from "./secret.js";
class UnresolvedSecretError extends ConfigError {
  constructor(source, problems) {
    super(source, problems);
    this.problems = problems;
  }
  problems;
}
function isUnresolvedSecretError(error) {
  return error instanceof UnresolvedSecretError;
}
class UnresolvedSecret extends Secret {
  constructor(source, problems) {
    super("");
    this.source = source;
    this.problems = problems;
  }
  source;
  problems;
  reveal() {
    throw new UnresolvedSecretError(this.source, this.problems);
  }
}
function unresolvedSecrets(root, found = []) {
  if (root instanceof UnresolvedSecret) found.push(root);
  else if (root instanceof Secret) return found;
  else if (Array.isArray(root)) for (const item of root) unresolvedSecrets(item, found);
  else if (root !== null && typeof root === "object") {
    for (const item of Object.values(root)) unresolvedSecrets(item, found);
  }
  return found;
}
function resolvedSecretValues(root, found = /* @__PURE__ */ new Set()) {
  if (root instanceof UnresolvedSecret) return found;
  if (root instanceof Secret) return collectSecrets(root, found);
  if (Array.isArray(root)) for (const item of root) resolvedSecretValues(item, found);
  else if (root !== null && typeof root === "object") {
    for (const item of Object.values(root)) resolvedSecretValues(item, found);
  }
  return found;
}
export {
  UnresolvedSecret,
  UnresolvedSecretError,
  isUnresolvedSecretError,
  resolvedSecretValues,
  unresolvedSecrets
};
