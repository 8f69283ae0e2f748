import { ConfigError, type ConfigIssue } from './config-error.js';
import { collectSecrets, Secret } from './secret.js';

/**
 * Revealing a secret whose variable or file could not be read: the config error the strict loader would
 * have raised, with its key path, raised where the secret is first needed (the CLI exits 2 on it).
 */
export class UnresolvedSecretError extends ConfigError {
  constructor(
    source: string,
    readonly problems: readonly ConfigIssue[],
  ) {
    super(source, problems);
  }
}

/** Type guard for {@link UnresolvedSecretError}. */
export function isUnresolvedSecretError(error: unknown): error is UnresolvedSecretError {
  return error instanceof UnresolvedSecretError;
}

/**
 * A secret a command did not need and could not read (an unset variable, an unreadable file): it prints as
 * `[redacted]` like any secret, and `reveal()` throws {@link UnresolvedSecretError} naming its key.
 */
export class UnresolvedSecret extends Secret {
  constructor(
    readonly source: string,
    readonly problems: readonly ConfigIssue[],
  ) {
    super('');
  }

  override reveal(): never {
    throw new UnresolvedSecretError(this.source, this.problems);
  }
}

/** Every unresolved secret reachable from `root` (a config), in key order. */
export function unresolvedSecrets(root: unknown, found: UnresolvedSecret[] = []): UnresolvedSecret[] {
  if (root instanceof UnresolvedSecret) found.push(root);
  else if (root instanceof Secret) return found;
  else if (Array.isArray(root)) for (const item of root) unresolvedSecrets(item, found);
  else if (root !== null && typeof root === 'object') {
    for (const item of Object.values(root)) unresolvedSecrets(item, found);
  }
  return found;
}

/** The values of every secret reachable from `root` that could be read: what the log scrubber must hide. */
export function resolvedSecretValues(root: unknown, found: Set<string> = new Set()): Set<string> {
  if (root instanceof UnresolvedSecret) return found;
  if (root instanceof Secret) return collectSecrets(root, found);
  if (Array.isArray(root)) for (const item of root) resolvedSecretValues(item, found);
  else if (root !== null && typeof root === 'object') {
    for (const item of Object.values(root)) resolvedSecretValues(item, found);
  }
  return found;
}
