// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} config placeholders, not templates
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { configKeyDocs, diffSummary, renderConfigDocs, runConfigDocs } from '../../scripts/config-docs.js';

const DOCS = new URL('../../docs/configuration.md', import.meta.url);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCHEMA_SOURCES = ['src/config/schema.ts', ...schemaDirFiles('src/config/schema')].map((file) => ({
  file,
  text: readFileSync(join(ROOT, file), 'utf8'),
}));
const { keys, kinds, sections } = configKeyDocs();
const dir = mkdtempSync(join(tmpdir(), 'shortwatch-config-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function schemaDirFiles(dirPath: string): string[] {
  return readdirSync(join(ROOT, dirPath), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `${dirPath}/${name.split(sep).join('/')}`)
    .sort();
}

// Case, spacing and a final full stop aside, two texts say the same.
function comparable(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').replace(/\.$/, '').trim();
}

function run(args: string[], path: string): { code: number; out: string } {
  const lines: string[] = [];
  const code = runConfigDocs(args, path, (line) => lines.push(line));
  return { code, out: lines.join('\n') };
}

describe('docs/configuration.md', () => {
  it('is up to date with the schema (npm run docs:config regenerates it)', () => {
    expect(readFileSync(DOCS, 'utf8')).toBe(renderConfigDocs());
  });

  it('opens with where the file is, interpolation, secrets, durations and errors', () => {
    const text = renderConfigDocs();
    const order = ['--config <path>', 'SHORTWATCH_CONFIG', 'config/shortwatch.yaml'].map((s) =>
      text.indexOf(s),
    );
    expect(order.every((at, i) => at > 0 && (i === 0 || at > (order[i - 1] ?? 0)))).toBe(true);
    for (const needle of [
      '`${VAR:-default}`',
      '`${file:/path}`',
      '<key>File',
      '`90s`',
      'exits with code 2',
    ]) {
      expect(text).toContain(needle);
    }
    expect(text).toContain('channels[0].webhookURL: unknown key');
  });
});

describe('configKeyDocs', () => {
  it.each(
    keys.filter((k) => k.fileFor === undefined).map((k) => [k.kind ? `${k.path} (${k.kind})` : k.path, k]),
  )('%s has a description', (_, key) => {
    expect(key.description.length).toBeGreaterThan(5);
  });

  it.each([
    ['upstream.apiKey', { type: 'secret', required: true }],
    ['upstream.timeout', { type: 'duration', default: '15s', required: false }],
    ['redis.url', { type: 'secret', default: 'redis://127.0.0.1:6379' }],
    ['channels', { default: [] }],
    [
      'channels[].kind',
      { type: '`slack` | `email` | `webhook` | `console` | `teams` | `slack-app`', required: true },
    ],
    ['channels[].filter.minValue', { type: 'number, 0–100', required: false }],
    ['channels[].auth.pass', { kind: 'email', type: 'secret', required: true }],
    ['channels[].auth.passFile', { kind: 'email', type: 'file path', fileFor: 'pass' }],
    ['watchlist[].id', { oneOf: ['id', 'name'] }],
    ['poll.thresholds', { default: [0.5, 1, 2, 5] }],
  ])('describes %s', (path, expected) => {
    expect(keys.find((k) => k.path === path)).toMatchObject(expected);
  });

  it('lists keys of one channel kind under that kind only', () => {
    const timeouts = keys.filter((k) => k.path === 'channels[].timeout').map((k) => k.kind);
    expect(timeouts).toEqual(['slack', 'webhook', 'teams', 'slack-app']);
    expect(keys.filter((k) => k.path === 'channels[].name').map((k) => k.kind)).toEqual([undefined]);
  });
});

describe('schema descriptions', () => {
  // One source per key: its .describe() string (what these docs are generated from). A TSDoc copy on
  // the key would be a second hand-written source, so there is none (see src/config/schema/index.ts).
  const describedTexts = SCHEMA_SOURCES.flatMap(({ text }) =>
    [...text.matchAll(/\.describe\(\s*(['"])((?:\\.|(?!\1).)*)\1/g)].map((m) =>
      (m[2] ?? '').replace(/\\(.)/g, '$1'),
    ),
  );
  const docComments = SCHEMA_SOURCES.flatMap(({ file, text }) =>
    [...text.matchAll(/\/\*\*([\s\S]*?)\*\//g)].map((m) => ({
      file,
      comment: (m[1] ?? '').replace(/^\s*\* ?/gm, '').trim(),
      next: text.slice((m.index ?? 0) + m[0].length).split('\n', 2)[1] ?? '',
    })),
  );

  it('are found in the schema sources', () => {
    expect(SCHEMA_SOURCES.map((s) => s.file)).toContain('src/config/schema/upstream.ts');
    expect(describedTexts.length).toBeGreaterThan(60);
  });

  it.each([
    ['section', [...sections]],
    ['channel kind', [...kinds]],
  ])('describe every %s', (_, described) => {
    expect(described.length).toBeGreaterThan(0);
    expect(described.filter(([, text]) => text.length <= 5)).toEqual([]);
  });

  it('are each written once', () => {
    const repeated = describedTexts.filter((text, i) => describedTexts.indexOf(text) !== i);
    expect(repeated).toEqual([]);
  });

  it('are not repeated by any TSDoc comment', () => {
    const described = new Set(describedTexts.map(comparable));
    const repeats = docComments.filter(({ comment }) => described.has(comparable(comment)));
    expect(repeats).toEqual([]);
  });

  it('leave config keys without TSDoc (a property line after a doc comment)', () => {
    const onKeys = docComments.filter(({ next }) => /^\s+[A-Za-z]\w*:/.test(next));
    expect(onKeys).toEqual([]);
  });
});

describe('runConfigDocs', () => {
  it('writes the docs, then --check passes', () => {
    const path = join(dir, 'fresh.md');
    expect(run([], path).code).toBe(0);
    expect(run(['--check'], path)).toEqual({ code: 0, out: `${path} is up to date` });
  });

  it('--check fails with a diff summary when the docs are stale', () => {
    const path = join(dir, 'stale.md');
    writeFileSync(path, renderConfigDocs().replace('| `upstream.retries` |', '| `upstream.retry` |'));
    const { code, out } = run(['--check'], path);
    expect(code).toBe(1);
    expect(out).toContain('out of date');
    expect(out).toMatch(/^- \d+: \| `upstream\.retries` \|/m);
    expect(out).toMatch(/^\+ \d+: \| `upstream\.retry` \|/m);
  });

  it('--check fails when the docs are missing', () => {
    expect(run(['--check'], join(dir, 'missing.md')).code).toBe(1);
  });
});

describe('diffSummary', () => {
  it.each([
    ['identical texts', 'a\nb\nc', 'a\nb\nc', '0 changed lines:\n'],
    ['a changed line', 'a\nb\nc', 'a\nB\nc', '2 changed lines:\n+ 2: B\n- 2: b'],
    ['an added line', 'a\nc', 'a\nb\nc', '1 changed line:\n+ 2: b'],
    ['a removed line', 'a\nb\nc', 'a\nc', '1 changed line:\n- 2: b'],
  ])('reports %s', (_, expected, actual, summary) => {
    expect(diffSummary(expected, actual)).toBe(summary);
  });

  it('caps the lines it shows', () => {
    const summary = diffSummary('x\n'.repeat(30), 'y\n'.repeat(30), 5);
    expect(summary.split('\n')).toHaveLength(7);
    expect(summary).toContain('and 55 more changed lines');
  });
});
