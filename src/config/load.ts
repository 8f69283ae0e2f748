import { readFileSync } from 'node:fs';
import { type Document, isMap, isNode, isScalar, LineCounter, parseDocument, type YAMLError } from 'yaml';
import { ConfigError, type ConfigIssue, formatKeyPath } from './config-error.js';
import { type Interpolated, interpolate, type ReadText } from './interpolate.js';
import { closestKey, keysAt } from './known-keys.js';
import { type Config, configSchema } from './schema.js';

/** Where the config comes from: `--config`, else `SHORTWATCH_CONFIG`, else `config/shortwatch.yaml`. */
export function configPath(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return flag ?? env.SHORTWATCH_CONFIG ?? 'config/shortwatch.yaml';
}

/**
 * A caller's say over interpolation problems before validation: config/lazy-secrets.ts sets aside secrets
 * that cannot be read, for commands that do not need them. By default nothing is set aside.
 */
export type SetAside = (interpolated: Interpolated) => Interpolated;

/** Parses and validates config text; throws {@link ConfigError} listing every problem with its key path. */
export function parseConfig(
  text: string,
  source: string,
  env: NodeJS.ProcessEnv = process.env,
  readText: ReadText = (path) => readFileSync(path, 'utf8'),
  setAside: SetAside = (interpolated) => interpolated,
): Config {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { prettyErrors: true, lineCounter });
  if (document.errors.length > 0) throw new ConfigError(source, document.errors.map(yamlIssue));
  const raw: unknown = document.toJS() ?? {};
  const { value, issues, unresolved } = setAside(interpolate(raw, env, readText));
  const result = configSchema.safeParse(value);
  const repeats = repeatsOf(unresolved);
  const schemaIssues: ConfigIssue[] = result.success
    ? []
    : result.error.issues
        .filter((issue) => !repeats(issue))
        .flatMap((issue) => describeIssue(issue, { document, lineCounter, raw }));
  const all = [...issues, ...schemaIssues];
  if (all.length > 0 || !result.success) throw new ConfigError(source, all);
  return result.data;
}

/** Reads, interpolates and validates the config file at `path`. */
export function loadConfig(path: string, env: NodeJS.ProcessEnv = process.env, setAside?: SetAside): Config {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
    throw new ConfigError(path, [{ path: '', message: `cannot read the config file (${code})` }]);
  }
  return parseConfig(text, path, env, undefined, setAside);
}

interface ZodIssueLike {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

/**
 * Whether a schema issue only repeats the interpolation issue of a key left blank (an unset variable, an
 * unreadable secret file): a complaint about the blank key itself ("must not be empty"), or a check of the
 * object holding it that the blank failed (an email channel "needs smtpUrl or host"). One problem, one line.
 */
function repeatsOf(unresolved: readonly PropertyKey[][]): (issue: ZodIssueLike) => boolean {
  const blanks = new Set(unresolved.map(formatKeyPath));
  const holders = new Set(unresolved.map((path) => formatKeyPath(path.slice(0, -1))));
  return (issue) => {
    const path = formatKeyPath(issue.path);
    return blanks.has(path) || (issue.code === 'custom' && holders.has(path));
  };
}

/**
 * A YAML syntax error with its whole code frame (the lines and the caret under the fault), at its line:
 * the frame is what lets a reader see the fault, so it is never cut.
 */
function yamlIssue(error: YAMLError): ConfigIssue {
  // prettyErrors puts the position in the first line; the line is told as the issue's own.
  const message = error.message.replace(/ at line \d+, column \d+:/, ':').trimEnd();
  const line = error.linePos?.[0].line;
  return { path: '', message: `YAML: ${message}`, ...(line === undefined ? {} : { line }) };
}

/** The parsed file a schema issue is placed in: its document, lines, and the value read. */
interface ParsedFile {
  document: Document;
  lineCounter: LineCounter;
  raw: unknown;
}

/** The line of `key` in the mapping at `path`, when the document has one there. */
function keyLine(file: ParsedFile, path: readonly PropertyKey[], key: string): number | undefined {
  const node = path.length === 0 ? file.document.contents : file.document.getIn(path, true);
  if (!isMap(node)) return undefined;
  const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === key);
  const offset = isScalar(pair?.key) ? pair.key.range?.[0] : undefined;
  return offset === undefined ? undefined : file.lineCounter.linePos(offset).line;
}

/** An unknown key at its line, with the key of the schema it most likely meant. */
function unknownKey(file: ParsedFile, path: readonly PropertyKey[], key: string): ConfigIssue {
  const meant = closestKey(key, keysAt(configSchema, path, file.raw));
  const line = keyLine(file, path, key);
  return {
    path: formatKeyPath([...path, key]),
    message: meant === undefined ? 'unknown key' : `unknown key (did you mean ${meant}?)`,
    ...(line === undefined ? {} : { line }),
  };
}

function describeIssue(issue: ZodIssueLike, file: ParsedFile): ConfigIssue[] {
  if (issue.code === 'unrecognized_keys' && issue.keys) {
    return issue.keys.map((key) => unknownKey(file, issue.path, key));
  }
  const message = issue.message.endsWith('received undefined') ? 'is required' : issue.message;
  const line = valueLine(file, issue.path);
  return [{ path: formatKeyPath(issue.path), message, ...(line === undefined ? {} : { line }) }];
}

/**
 * The line a bad value is written at: its key's, or an array item's own. Undefined for a key the file
 * leaves out (a required one): the section's line would point at something that is not wrong.
 */
function valueLine(file: ParsedFile, path: readonly PropertyKey[]): number | undefined {
  const last = path.at(-1);
  if (typeof last === 'string') return keyLine(file, path.slice(0, -1), last);
  const node: unknown = path.length === 0 ? undefined : file.document.getIn(path, true);
  const offset = isNode(node) ? node.range?.[0] : undefined;
  return offset === undefined ? undefined : file.lineCounter.linePos(offset).line;
}
