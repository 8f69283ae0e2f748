import { rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The CLI the tests spawn, compiled once per test run. Spawning `node --import tsx src/main.ts` compiles
 * and loads some 300 modules through tsx in every child: about twice the CPU of the compiled tree, and the
 * suite spawns hundreds of daemons and commands on 2 cores. The tree keeps `src/`'s layout one level below
 * the root, as `dist/` does (what the Docker image runs), so paths relative to a module still resolve.
 */
const ROOT = new URL('../..', import.meta.url).pathname;

/** Where the compiled tree is written, and the environment variable that tells the harness to use it. */
export const COMPILED_DIR = join(ROOT, '.test-build');
export const COMPILED_ENV = 'SHORTWATCH_TEST_MAIN';

/** Vitest's global setup: compiles src/ (esbuild, the compiler tsx itself runs) before any test file. */
export default async function compileCli(): Promise<void> {
  // Loaded here only: the harness imports this module's names in every test worker.
  const { build } = await import('esbuild');
  rmSync(COMPILED_DIR, { recursive: true, force: true });
  await build({
    entryPoints: [join(ROOT, 'src/**/*.ts')],
    outdir: COMPILED_DIR,
    outbase: join(ROOT, 'src'),
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'error',
  });
  process.env[COMPILED_ENV] = join(COMPILED_DIR, 'main.js');
}
