import { configDefaults, defineConfig } from 'vitest/config';

// Three projects, disjoint by construction: `slow` is an explicit list, `e2e` is test/e2e minus
// that list, `unit` is every other test file (so a new test directory lands in `unit`).
// `vitest run` (npm test) runs all three; `--project NAME` runs one (npm run test:unit|e2e|slow).

const ALL = 'test/**/*.test.ts';
const E2E = 'test/e2e/**/*.test.ts';

// The demo run, the chaos suite, and every file that takes over ~20 s on its own
// (measured with one worker: demo/run 85 s, chaos 57 s, polling-cli 37 s, polling-rate-limit 36 s,
// polling-budget 31 s, delivery-digest-recovery 21 s, delivery-kill-points 44 s; the next e2e
// file takes about 15 s).
const SLOW = [
  'test/demo/run.test.ts',
  'test/chaos/*.test.ts',
  'test/e2e/polling-cli.test.ts',
  'test/e2e/polling-rate-limit.test.ts',
  'test/e2e/polling-budget.test.ts',
  // 2,000 issuers on a clock 6,000 times faster than real, about ten scaled days: 90-145 s.
  'test/e2e/polling-scaled-register.test.ts',
  'test/e2e/delivery-digest-recovery.test.ts',
  'test/e2e/delivery-kill-points.test.ts',
  // Spawned CLI processes against a daemon waiting on its heartbeat probe: about 50 s and 20 s.
  'test/e2e/polling-access-interactive.test.ts',
  'test/e2e/check-start-validation.test.ts',
  // A flap held for its 20 s window, end to end: about 25 s.
  'test/e2e/alerts-threshold-story.test.ts',
  // Private Redis topologies with spawned daemons: Sentinel failover about 30 s, Cluster about 20 s,
  // the hash-tag run (every channel kind, a digest, the CLI) about 20 s.
  'test/e2e/ha-sentinel.test.ts',
  'test/e2e/ha-cluster.test.ts',
  'test/e2e/keys-hash-tag.test.ts',
  // Every e-mail template in headless Chromium at two widths: about 20 s; the web console against a
  // running daemon (console.test.ts): about 20 s.
  'test/browser/*.test.ts',
];

export default defineConfig({
  test: {
    // No root `include`: with `extends: true` arrays are concatenated, so a root include would be
    // added to every project's own. The root config runs no tests itself once it has projects.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default on this 2-core machine is cpus - 1 = 1 worker (the suite ran serially).
    // The e2e/slow files mostly wait on child processes and time windows, so 2 forks cut the full
    // run from ~7.5 min to ~3.5 min with every test passing; more than the 2 cores is not used.
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: [ALL], exclude: [...configDefaults.exclude, E2E, ...SLOW] },
      },
      {
        extends: true,
        test: { name: 'e2e', include: [E2E], exclude: [...configDefaults.exclude, ...SLOW] },
      },
      {
        extends: true,
        test: { name: 'slow', include: SLOW },
      },
    ],
  },
});
