import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { ConfigError, type ConfigIssue, formatKeyPath } from './config-error.js';
import { interpolate, type ReadText } from './interpolate.js';
import { type Config, configSchema } from './schema.js';

/** Where the config comes from: `--config`, else `SHORTWATCH_CONFIG`, else `config/shortwatch.yaml`. */
export function configPath(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return flag ?? env.SHORTWATCH_CONFIG ?? 'config/shortwatch.yaml';
}

/** Parses and validates config text; throws {@link ConfigError} listing every problem with its key path. */
export function parseConfig(
  text: string,
  source: string,
  env: NodeJS.ProcessEnv = process.env,
  readText: ReadText = (path) => readFileSync(path, 'utf8'),
): Config {
  const document = parseDocument(text, { prettyErrors: true });
  if (document.errors.length > 0) {
    throw new ConfigError(
      source,
      document.errors.map((e) => ({ path: '', message: `YAML: ${e.message.split('\n')[0]}` })),
    );
  }
  const raw = document.toJS() ?? {};
  const { value, issues } = interpolate(raw, env, readText);
  const result = configSchema.safeParse(value);
  const schemaIssues: ConfigIssue[] = result.success ? [] : result.error.issues.flatMap(describeIssue);
  // An unset variable already explains why the key is empty; its schema complaint would only repeat it.
  const explained = new Set(issues.map((i) => i.path));
  const all = [...issues, ...schemaIssues.filter((i) => !explained.has(i.path))];
  if (all.length > 0 || !result.success) throw new ConfigError(source, all);
  return result.data;
}

/** Reads, interpolates and validates the config file at `path`. */
export function loadConfig(path: string, env: NodeJS.ProcessEnv = process.env): Config {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
    throw new ConfigError(path, [{ path: '', message: `cannot read the config file (${code})` }]);
  }
  return parseConfig(text, path, env);
}

interface ZodIssueLike {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

function describeIssue(issue: ZodIssueLike): ConfigIssue[] {
  if (issue.code === 'unrecognized_keys' && issue.keys) {
    return issue.keys.map((key) => ({ path: formatKeyPath([...issue.path, key]), message: 'unknown key' }));
  }
  const message = issue.message.endsWith('received undefined') ? 'is required' : issue.message;
  return [{ path: formatKeyPath(issue.path), message }];
}
