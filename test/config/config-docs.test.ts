// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} config placeholders, not templates
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configKeyDocs, diffSummary, renderConfigDocs, runConfigDocs } from '../../scripts/config-docs.js';

const DOCS = new URL('../../docs/configuration.md', import.meta.url);
const SCHEMA_SOURCE = readFileSync(new URL('../../src/config/schema.ts', import.meta.url), 'utf8');
const { keys } = configKeyDocs();
const dir = mkdtempSync(join(tmpdir(), 'shortwatch-config-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
    ['channels[].kind', { type: '`slack` | `email` | `webhook` | `console`', required: true }],
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
    expect(timeouts).toEqual(['slack', 'webhook']);
    expect(keys.filter((k) => k.path === 'channels[].name').map((k) => k.kind)).toEqual([undefined]);
  });
});

describe('schema descriptions', () => {
  // Each key carries its text twice: TSDoc for editors, .describe() for these docs. They must agree.
  it('repeat a TSDoc comment of src/config/schema.ts word for word', () => {
    const docComments = new Set([...SCHEMA_SOURCE.matchAll(/\/\*\* (.+?) \*\//g)].map((m) => m[1]));
    const described = [...SCHEMA_SOURCE.matchAll(/\.describe\(\s*(['"])((?:\\.|(?!\1).)*)\1/g)].map((m) =>
      (m[2] ?? '').replace(/\\(.)/g, '$1'),
    );
    expect(described.length).toBeGreaterThan(60);
    expect(described.filter((text) => !docComments.has(text))).toEqual([]);
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
