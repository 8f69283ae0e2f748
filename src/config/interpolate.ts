import { type ConfigIssue, formatKeyPath } from './config-error.js';
import { FILE_SECRET_KEYS } from './schema.js';

/** Reads a file's text; injected so that loading stays testable. */
export type ReadText = (path: string) => string;

/** A parsed YAML tree with every placeholder replaced, and what could not be. */
export interface Interpolated {
  value: unknown;
  issues: ConfigIssue[];
  /**
   * Key paths left empty because the variable or file meant to fill them could not be read. The issue
   * already raised explains them, so a schema complaint about the same blank would only repeat it.
   */
  unresolved: PropertyKey[][];
}

interface Context {
  env: NodeJS.ProcessEnv;
  readText: ReadText;
  issues: ConfigIssue[];
  unresolved: PropertyKey[][];
}

const PLACEHOLDER = /\$\$|\$\{([^}]*)\}/g;

/**
 * Replaces `${VAR}`, `${VAR:-default}` and `${file:/path}` in every string of a parsed YAML tree, and
 * resolves `<key>File` siblings of secret keys. Problems are collected, not thrown, so all are shown at once.
 */
export function interpolate(root: unknown, env: NodeJS.ProcessEnv, readText: ReadText): Interpolated {
  const context: Context = { env, readText, issues: [], unresolved: [] };
  const value = walk(root, [], context);
  return { value, issues: context.issues, unresolved: context.unresolved };
}

function walk(node: unknown, path: PropertyKey[], context: Context): unknown {
  if (typeof node === 'string') return substitute(node, path, context);
  if (Array.isArray(node)) return node.map((item, index) => walk(item, [...path, index], context));
  if (node !== null && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = walk(value, [...path, key], context);
    return resolveFileKeys(out, path, context);
  }
  return node;
}

function substitute(text: string, path: PropertyKey[], context: Context): string {
  return text.replace(PLACEHOLDER, (whole, expression: string | undefined) => {
    if (whole === '$$') return '$';
    const expr = (expression ?? '').trim();
    if (expr.startsWith('file:')) return readSecretFile(expr.slice(5), path, context) ?? '';
    const [name = '', fallback] = splitDefault(expr);
    const value = context.env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    context.issues.push({
      path: formatKeyPath(path),
      message: `environment variable ${name} is not set`,
      variable: name,
    });
    context.unresolved.push(path);
    return '';
  });
}

function splitDefault(expr: string): [string, string | undefined] {
  const at = expr.indexOf(':-');
  return at === -1 ? [expr, undefined] : [expr.slice(0, at), expr.slice(at + 2)];
}

/** The file's text without its trailing newline, or undefined (an issue at `path`) when it cannot be read. */
function readSecretFile(file: string, path: PropertyKey[], context: Context): string | undefined {
  try {
    return context.readText(file).replace(/\r?\n$/, '');
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
    context.issues.push({ path: formatKeyPath(path), message: `cannot read file ${file} (${reason})` });
    context.unresolved.push(path);
    return undefined;
  }
}

function resolveFileKeys(
  node: Record<string, unknown>,
  path: PropertyKey[],
  context: Context,
): Record<string, unknown> {
  for (const key of FILE_SECRET_KEYS) {
    const fileKey = `${key}File`;
    const file = node[fileKey];
    if (file === undefined) continue;
    if (node[key] !== undefined) {
      context.issues.push({
        path: formatKeyPath([...path, fileKey]),
        message: `set either ${key} or ${fileKey}, not both`,
      });
    } else if (typeof file !== 'string') {
      context.issues.push({ path: formatKeyPath([...path, fileKey]), message: 'must be a file path' });
    } else {
      const text = readSecretFile(file, [...path, fileKey], context);
      // The issue names the file key the user wrote; the key it stands for is blank for the same reason.
      if (text === undefined) context.unresolved.push([...path, key]);
      node[key] = text ?? '';
    }
    delete node[fileKey];
  }
  return node;
}
