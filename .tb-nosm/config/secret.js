import { inspect } from "node:util";
const REDACTED = "[redacted]";
class Secret {
  #value;
  constructor(value) {
    this.#value = value;
  }
  /** The secret value itself; call only where it leaves the process (a header, a socket). */
  reveal() {
    return this.#value;
  }
  toString() {
    return REDACTED;
  }
  toJSON() {
    return REDACTED;
  }
  [inspect.custom]() {
    return REDACTED;
  }
}
function isSecret(value) {
  return value instanceof Secret;
}
function collectSecrets(root, found = /* @__PURE__ */ new Set()) {
  if (root instanceof Secret) {
    const value = root.reveal();
    if (value.length >= 4) found.add(value);
  } else if (Array.isArray(root)) {
    for (const item of root) collectSecrets(item, found);
  } else if (root !== null && typeof root === "object") {
    for (const item of Object.values(root)) collectSecrets(item, found);
  }
  return found;
}
function redactText(text, secrets) {
  let out = text;
  for (const secret of secrets) {
    if (secret && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}
export {
  Secret,
  collectSecrets,
  isSecret,
  redactText
};
