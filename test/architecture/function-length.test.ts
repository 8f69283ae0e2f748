import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * No function in src/ is over 60 lines (STYLE.md: a function past ~40 is worth a second look): each long
 * one is split into named steps, or listed with its reason in docs/architecture.md's "Functions over 60
 * lines" table. Functions, methods, accessors, constructors and arrow functions count, from their first
 * line to their last; one nested in another counts on its own (and in its parent).
 */

const MAX_LINES = 60;
const ROOT = join(import.meta.dirname, '..', '..');

/** A function of src/ by where it is and what it is called. */
interface Found {
  /** `src/path.ts name`, as the exceptions table names it. */
  id: string;
  lines: number;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** What a function is called: its own name, its class's and method's, or what it is assigned to. */
function nameOf(node: ts.Node, file: ts.SourceFile): string {
  const named = (n: ts.Node): string | undefined => {
    if (
      (ts.isFunctionDeclaration(n) ||
        ts.isMethodDeclaration(n) ||
        ts.isGetAccessor(n) ||
        ts.isSetAccessor(n) ||
        ts.isFunctionExpression(n)) &&
      n.name
    ) {
      return n.name.getText(file);
    }
    if (ts.isConstructorDeclaration(n)) return 'constructor';
    const parent = n.parent;
    if (
      ts.isVariableDeclaration(parent) ||
      ts.isPropertyAssignment(parent) ||
      ts.isPropertyDeclaration(parent)
    ) {
      return parent.name.getText(file);
    }
    return undefined;
  };
  const own = named(node) ?? '<anonymous>';
  const owner = ts.isClassLike(node.parent) ? node.parent.name?.getText(file) : undefined;
  if (owner !== undefined) return `${owner}.${own}`;
  // An anonymous function is named by the function it sits in.
  if (own === '<anonymous>') {
    for (let up = node.parent; up !== undefined; up = up.parent) {
      if (ts.isFunctionLike(up)) return `${nameOf(up, file)}/<anonymous>`;
    }
  }
  return own;
}

function longFunctions(): Found[] {
  const found: Found[] = [];
  for (const path of sourceFiles(join(ROOT, 'src'))) {
    const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const where = relative(ROOT, path).split('\\').join('/');
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
        const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
        const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = last - first + 1;
        if (lines > MAX_LINES) found.push({ id: `${where} ${nameOf(node, file)}`, lines });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

/** The exceptions docs/architecture.md lists: rows of `| \`src/path.ts\` | \`name\` | reason |`. */
function listedExceptions(): Map<string, string> {
  const doc = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const section = doc.split('## Functions over 60 lines')[1]?.split('\n## ')[0] ?? '';
  const rows = new Map<string, string>();
  for (const match of section.matchAll(/^\| `(src\/[^`]+)` \| `([^`]+)` \| (.+) \|$/gm)) {
    const [, path, name, reason] = match;
    if (path && name && reason) rows.set(`${path} ${name}`, reason.trim());
  }
  return rows;
}

describe('function length', () => {
  const long = longFunctions();
  const exceptions = listedExceptions();

  it(`no function in src/ is over ${MAX_LINES} lines unless docs/architecture.md lists it with its reason`, () => {
    const unlisted = long.filter((f) => !exceptions.has(f.id)).map((f) => `${f.id} (${f.lines} lines)`);
    expect(unlisted).toEqual([]);
  });

  it('every exception listed is still over the limit (a split function leaves the table)', () => {
    const ids = new Set(long.map((f) => f.id));
    expect([...exceptions.keys()].filter((id) => !ids.has(id))).toEqual([]);
  });

  it('finds a long function (the check itself works)', () => {
    const body = Array.from({ length: MAX_LINES }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const file = ts.createSourceFile(
      'x.ts',
      `function tooLong() {\n${body}\n}\n`,
      ts.ScriptTarget.Latest,
      true,
    );
    const fn = file.statements[0];
    expect(fn && ts.isFunctionDeclaration(fn) ? nameOf(fn, file) : undefined).toBe('tooLong');
    const lines = fn ? file.getLineAndCharacterOfPosition(fn.getEnd()).line + 1 : 0;
    expect(lines).toBeGreaterThan(MAX_LINES);
  });
});
