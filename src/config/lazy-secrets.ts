import { ConfigError, type ConfigIssue, formatKeyPath, isConfigError } from './config-error.js';
import type { Interpolated } from './interpolate.js';
import { loadConfig } from './load.js';
import { type Config, FILE_SECRET_KEYS } from './schema.js';
import { Secret } from './secret.js';
import { UnresolvedSecret } from './unresolved-secret.js';

// Stands in for an unread secret while the schema checks everything else. It has the shape of the
// strictest secret format (a Standard Webhooks key, `whsec_` and the base64 of 24 bytes), so every
// secret key accepts it; it never leaves this module: the Secret parsed from it is replaced at once.
const STAND_IN = `whsec_${Buffer.alloc(24).toString('base64')}`;

const SECRET_KEYS: ReadonlySet<PropertyKey> = new Set(FILE_SECRET_KEYS);

/** A secret key whose variable or file could not be read, and the problems that say so. */
interface UnreadSecret {
  path: readonly PropertyKey[];
  problems: ConfigIssue[];
}

/**
 * Loads the config like {@link loadConfig}, except that a secret whose variable or file cannot be read
 * does not stop loading: it becomes an {@link UnresolvedSecret}, which names its key when revealed. For
 * commands that send nothing (`status`, `mutes`, …): they need Redis, not the Slack webhook. Every other
 * problem, a secret's included (an empty value, a bad `whsec_` key), is still a {@link ConfigError}.
 */
export function loadConfigWithLazySecrets(path: string, env: NodeJS.ProcessEnv = process.env): Config {
  const unread: UnreadSecret[] = [];
  let interpolation: readonly ConfigIssue[] = [];
  let config: Config;
  try {
    config = loadConfig(path, env, (interpolated) => {
      interpolation = interpolated.issues;
      return setAsideUnreadSecrets(interpolated, unread);
    });
  } catch (error) {
    // The config fails anyway: name every unread secret too (in file order), so that one run lists every
    // missing variable.
    if (!isConfigError(error) || unread.length === 0) throw error;
    const rest = error.issues.filter((issue) => !interpolation.includes(issue));
    throw new ConfigError(path, [...interpolation, ...rest]);
  }
  // Only a key the schema turned into a Secret may stay unread; any other was never a secret after all.
  const notSecrets = unread.filter(
    (secret) =>
      !replaceAt(config, secret.path, (current) =>
        current instanceof Secret ? new UnresolvedSecret(path, secret.problems) : undefined,
      ),
  );
  if (notSecrets.length > 0)
    throw new ConfigError(
      path,
      notSecrets.flatMap((s) => s.problems),
    );
  return config;
}

/**
 * Takes the problems of every secret key left blank (an unset variable, an unreadable file) out of the
 * interpolation result and puts a stand-in in the blank, recording each in `unread`.
 */
function setAsideUnreadSecrets(interpolated: Interpolated, unread: UnreadSecret[]): Interpolated {
  const { value, issues, unresolved } = interpolated;
  const setAside = new Set<string>();
  for (const path of unresolved) {
    const at = formatKeyPath(path);
    if (!SECRET_KEYS.has(path.at(-1) ?? '') || setAside.has(at)) continue;
    // `${VAR}` is reported at the key itself, a `<key>File` that cannot be read at the file key.
    const problems = issues.filter((issue) => issue.path === at || issue.path === `${at}File`);
    if (problems.length === 0) continue;
    if (!replaceAt(value, path, (current) => (typeof current === 'string' ? STAND_IN : undefined))) continue;
    setAside.add(at);
    unread.push({ path, problems });
  }
  const explained = new Set(unread.flatMap((secret) => secret.problems));
  return {
    value,
    issues: issues.filter((issue) => !explained.has(issue)),
    unresolved: unresolved.filter((path) => {
      const at = formatKeyPath(path);
      return !setAside.has(at) && !setAside.has(at.replace(/File$/, ''));
    }),
  };
}

/** Replaces the value at `path` with what `replace` returns; false (nothing changed) when it returns undefined. */
function replaceAt(
  root: unknown,
  path: readonly PropertyKey[],
  replace: (current: unknown) => unknown,
): boolean {
  const key = path.at(-1);
  const parent = path.slice(0, -1).reduce<unknown>((node, step) => childOf(node, step), root);
  if (key === undefined) return false;
  const next = replace(childOf(parent, key));
  if (next === undefined) return false;
  if (Array.isArray(parent) && typeof key === 'number') parent[key] = next;
  else if (isRecord(parent) && typeof key === 'string') parent[key] = next;
  else return false;
  return true;
}

function childOf(node: unknown, key: PropertyKey): unknown {
  if (Array.isArray(node) && typeof key === 'number') return node[key];
  if (isRecord(node) && typeof key === 'string') return node[key];
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Secret);
}
