import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// `npm run lint` (and so CI) runs dependency-cruiser with the project's rule set and knip with its
// config. These run both on small fixture trees, so a rule that stops catching what it states fails here.

const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, '../..');
const DEPCRUISE = join(REPO, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const KNIP = join(REPO, 'node_modules/knip/bin/knip.js');

/** A tree of files under `root`: path → content. */
async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

const TSCONFIG = JSON.stringify({
  compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true },
  include: ['src'],
});

/** A package with I/O, as far as resolution cares: a name and an entry file. */
function fakePackage(name: string): Record<string, string> {
  return {
    [`node_modules/${name}/package.json`]: JSON.stringify({ name, version: '1.0.0', main: 'index.js' }),
    [`node_modules/${name}/index.js`]: 'module.exports = {};\n',
  };
}

/** Each import against the layers, and one the layers allow (which must not be reported). */
const LAYERED_TREE: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'layers-fixture', type: 'module' }),
  'tsconfig.json': TSCONFIG,
  ...fakePackage('ioredis'),
  ...fakePackage('bullmq'),
  'src/positions/types.ts': 'export type Held = { value: number };\n',
  'src/positions/x.ts': "import 'ioredis';\nexport const x = 1;\n",
  'src/routing/reads-files.ts':
    "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
  'src/positions/routed.ts':
    "import { read } from '../routing/reads-files.js';\nexport const routed = read;\n",
  'src/jobs/z.ts': 'export const z = 1;\n',
  'src/state/y.ts': "import { z } from '../jobs/z.js';\nexport const y = z;\n",
  'src/state/allowed.ts':
    "import 'ioredis';\nimport type { Held } from '../positions/types.js';\nexport const held: Held = { value: 1 };\n",
  'src/channels/c.ts': "import 'bullmq';\nimport { y } from '../state/y.js';\nexport const c = y;\n",
  'src/delivery/d.ts': "import { z } from '../jobs/z.js';\nexport const d = z;\n",
  'src/schedule/s.ts': 'export const s = 1;\n',
  'src/budget/b.ts': "import { s } from '../schedule/s.js';\nexport const b = s;\n",
  'src/ops/o.ts': 'export const o = 1;\n',
  'src/record/r.ts': "import { o } from '../ops/o.js';\nexport const r = o;\n",
  'src/cli/l.ts': 'export const l = 1;\n',
  'src/console/p.ts': "import { l } from '../cli/l.js';\nexport const p = l;\n",
  'src/app.ts': 'export const app = 1;\n',
  'src/jobs/w.ts': "import { app } from '../app.js';\nexport const w = app;\n",
};

const violationsSchema = z.object({
  summary: z.object({
    violations: z.array(z.object({ from: z.string(), to: z.string(), rule: z.object({ name: z.string() }) })),
  }),
});

describe('the layer rules (.dependency-cruiser.cjs) on a fixture tree', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'shortwatch-layers-'));
    await writeTree(root, LAYERED_TREE);
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('reports each forbidden import by its rule, and nothing the layers allow', async () => {
    const cruised = await run(
      process.execPath,
      [DEPCRUISE, 'src', '--config', join(REPO, '.dependency-cruiser.cjs'), '--output-type', 'json'],
      { cwd: root },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const { violations } = violationsSchema.parse(JSON.parse(cruised.stdout)).summary;
    const reported = violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
    expect(reported).toEqual(
      [
        'pure-core-has-no-io: src/positions/x.ts → node_modules/ioredis/index.js',
        'pure-core-has-no-io-builtins: src/routing/reads-files.ts → fs',
        'positions-is-below-routing: src/positions/routed.ts → src/routing/reads-files.ts',
        'state-imports-config-positions-and-redis: src/state/y.ts → src/jobs/z.ts',
        'channels-know-nothing-of-polling-or-redis: src/channels/c.ts → node_modules/bullmq/index.js',
        'channels-know-nothing-of-polling-or-redis: src/channels/c.ts → src/state/y.ts',
        'jobs-and-delivery-are-apart: src/delivery/d.ts → src/jobs/z.ts',
        'budget-is-below-schedule: src/budget/b.ts → src/schedule/s.ts',
        'nothing-below-imports-the-top: src/record/r.ts → src/ops/o.ts',
        'cli-is-the-outermost: src/console/p.ts → src/cli/l.ts',
        'work-is-below-the-top: src/jobs/w.ts → src/app.ts',
        'composition-root-is-imported-from-the-top: src/jobs/w.ts → src/app.ts',
      ].sort(),
    );
  });
});

describe("knip with the project's config on a fixture tree", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'shortwatch-knip-'));
    const { $schema: _schema, ...config } = z
      .record(z.string(), z.unknown())
      .parse(JSON.parse(await readFile(join(REPO, 'knip.json'), 'utf8')));
    await writeTree(root, {
      'package.json': JSON.stringify({ name: 'knip-fixture', type: 'module' }),
      'tsconfig.json': JSON.stringify({ ...JSON.parse(TSCONFIG), include: ['src', 'test'] }),
      'knip.json': JSON.stringify(config),
      'src/sums.ts':
        'export function total(values: number[]): number {\n  return values.reduce((a, b) => a + b, 0);\n}\n\nexport function mean(values: number[]): number {\n  return total(values) / values.length;\n}\n\nexport const NEVER_READ = 3;\n',
      'src/orphan.ts': 'export const orphan = 1;\n',
      'test/sums.test.ts': "import { mean } from '../src/sums.js';\nconsole.log(mean([1, 2]));\n",
    });
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('fails on an unused export and an unused file, and passes over one used in its own file', async () => {
    const outcome = await run(process.execPath, [KNIP, '--no-progress', '--reporter', 'json'], {
      cwd: root,
    }).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code?: number; stdout?: string }) => ({ code: error.code ?? -1, stdout: error.stdout ?? '' }),
    );
    expect(outcome.code).toBe(1);
    const report = z
      .object({
        files: z.array(z.string()),
        issues: z.array(z.object({ file: z.string(), exports: z.array(z.object({ name: z.string() })) })),
      })
      .parse(JSON.parse(outcome.stdout));
    expect(report.files).toEqual(['src/orphan.ts']);
    const unusedExports = report.issues.flatMap((issue) =>
      issue.exports.map((e) => `${issue.file}: ${e.name}`),
    );
    // `total` is exported and used by `mean` in its own file only: the config lets that pass.
    expect(unusedExports).toEqual(['src/sums.ts: NEVER_READ']);
  });
});
