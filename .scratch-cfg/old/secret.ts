import { inspect } from 'node:util';

const REDACTED = '[redacted]';

/**
 * A value that must never be printed: API keys, webhook URLs, SMTP credentials.
 * It renders as `[redacted]` through String(), JSON.stringify and util.inspect; only `reveal()` yields it.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The secret value itself; call only where it leaves the process (a header, a socket). */
  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}

/** Type guard for {@link Secret}. */
export function isSecret(value: unknown): value is Secret {
  return value instanceof Secret;
}

/** Every secret value reachable from `root`, for redacting free text (logs, error messages). */
export function collectSecrets(root: unknown, found: Set<string> = new Set()): Set<string> {
  if (root instanceof Secret) {
    const value = root.reveal();
    if (value.length >= 4) found.add(value);
  } else if (Array.isArray(root)) {
    for (const item of root) collectSecrets(item, found);
  } else if (root !== null && typeof root === 'object') {
    for (const item of Object.values(root)) collectSecrets(item, found);
  }
  return found;
}

/** Replaces every occurrence of a known secret in `text` with `[redacted]`. */
export function redactText(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}
