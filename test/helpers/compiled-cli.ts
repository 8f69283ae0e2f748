import { rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The CLI the tests spawn, bundled once per test run. Spawning `node --import tsx src/main.ts` compiles
 * and loads some 500 modules through tsx in every child, and even a compiled tree of them spends most of
 * a start resolving and linking modules: `--help` took 0.75 s of CPU from the tree, 0.41 s from one
 * bundle (measured side by side on 2 cores), and the suite spawns hundreds of daemons and commands.
 * The bundle sits one level below `.test-build/`, as a module sits one level below `dist/` in the image,
 * so the paths a module builds from its own URL still resolve (config/demo.yaml, the parse worker).
 * Loaded at run time, never bundled: SheetJS (required on the first spreadsheet, for its heap) and
 * playwright-core (imported by the demo's screenshots only).
 */
const ROOT = new URL('../..', import.meta.url).pathname;

/** Where the bundle is written, and the environment variable that tells the harness to use it. */
export const COMPILED_DIR = join(ROOT, '.test-build');
export const COMPILED_ENV = 'SHORTWATCH_TEST_MAIN';

/** Vitest's global setup: bundles the CLI and its parse worker (esbuild, the compiler tsx itself runs). */
export default async function compileCli(): Promise<void> {
  // A root global setup runs once per project: the first builds, the others wait for it (a second
  // build would delete the bundle under the tests the first project has started).
  const built = globalThis as { [BUILT]?: Promise<string> };
  built[BUILT] ??= bundleCli();
  process.env[COMPILED_ENV] = await built[BUILT];
}

const BUILT = Symbol.for('shortwatch.compiledCli');

/** Bundles the CLI into `.test-build/cli/`; resolves with the bundle's main file. */
async function bundleCli(): Promise<string> {
  // Loaded here only: the harness imports this module's names in every test worker.
  const { build } = await import('esbuild');
  rmSync(COMPILED_DIR, { recursive: true, force: true });
  const outdir = join(COMPILED_DIR, 'cli');
  await build({
    // The parse worker's file name is the one src/sources/isolated-read.ts looks for beside itself.
    entryPoints: {
      main: join(ROOT, 'src/main.ts'),
      'parse-worker': join(ROOT, 'src/sources/parse-worker.ts'),
    },
    bundle: true,
    outdir,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['@e965/xlsx', 'playwright-core'],
    // CommonJS dependencies bundled into an ES module still call `require` for Node's own modules.
    banner: {
      js: "import { createRequire as bannerRequire } from 'node:module'; const require = bannerRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    logLevel: 'error',
  });
  return join(outdir, 'main.js');
}
