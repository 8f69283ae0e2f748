import { relative, sep } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Three projects, disjoint by construction: `slow` is an explicit list, `e2e` is test/e2e minus
// that list, `unit` is every other test file (so a new test directory lands in `unit`).
// `vitest run` (npm test) runs all three; `--project NAME` runs one (npm run test:unit|e2e|slow).

const ALL = 'test/**/*.test.ts';
const E2E = 'test/e2e/**/*.test.ts';

// The demo run, the chaos suite, and every file that takes over ~20 s on its own, longest first: the
// sequencer below starts them in this order, before anything else, so the longest waits overlap the
// rest of the suite instead of ending it. Seconds are one full run's on 2 cores (with the rest beside
// them; the CLI the tests spawn is compiled once, test/helpers/compiled-cli.ts).
const SLOW = [
  // 2,000 issuers on a clock 3,000 times faster than real, about ten scaled days: about 150 s.
  'test/e2e/polling-scaled-register.test.ts',
  // Spawned CLI processes against a daemon waiting on its heartbeat probe: about 47 s.
  'test/e2e/polling-access-interactive.test.ts',
  // Digest batches killed at each step of their seal and send: about 44 s.
  'test/e2e/delivery-digest-recovery.test.ts',
  // A daemon SIGKILLed at each write point of a poll and a delivery: about 40 s.
  'test/e2e/delivery-kill-points.test.ts',
  'test/chaos/*.test.ts',
  // The demo until its first digest (every 30 s), then the demo that starts its own redis-server: 32 s.
  'test/demo/run.test.ts',
  'test/e2e/polling-rate-limit.test.ts',
  // The README's dry run as spawned processes, waiting for the example's digest every 30 s: 25-55 s.
  'test/e2e/readme-dry-run.test.ts',
  // A slack-app channel: 40 issuers' baseline, a burst, a SIGKILL and a restart (a second spawn, the
  // drain lease), a per-method 429 waited out, a reply and a flap's edit: 35-45 s on 2 busy cores.
  'test/e2e/slack-app-threads.test.ts',
  // A slack-app burst on a private redis-server (AOF, fsync always) SIGKILLed as Slack accepts a parent,
  // down some 4 s and restarted, then later changes in the threads: 31-48 s on 2 busy cores.
  'test/e2e/slack-app-redis-restart.test.ts',
  'test/e2e/polling-cli.test.ts',
  // Subscribers end to end: spawned CLI adds, a digest every 2 s, the signed links, one-click: about 45 s.
  'test/e2e/subscribers.test.ts',
  // A subscriber's digest schedule moved on their page: a spawned daemon, its scheduler, a digest every 2 s: about 27 s.
  'test/e2e/subscriber-digest-schedule.test.ts',
  // A subscriber's e-mail, personal webhook and Slack DM from one change: a spawned daemon, two CLI adds: about 10 s.
  'test/e2e/subscriber-routes.test.ts',
  // 2,000 subscribers imported from CSV through the CLI (one store script each), then a dry run: about 20 s.
  'test/cli/subscribers-import.test.ts',
  // 50 subscribers' outboxes drained by 4 deliverer slots to a parsing SMTP server: 20-25 s under load.
  'test/delivery/subscriber-deliverers-cap.test.ts',
  // A redis-server kept loading by DEBUG RELOAD (three loads of about 2 s), the Sentinel failover: 27-29 s.
  'test/e2e/redis-loading.test.ts',
  // The Sentinel failover, and the killed master restarted as the new one's replica: about 50 s.
  'test/e2e/ha-sentinel.test.ts',
  // Two failovers to a stale replica (a frozen replication link), WAIT on and off: about 60 s. The
  // issue's full count (18 failovers) is scripts/stale-replica-rounds.ts.
  'test/e2e/ha-stale-replica.test.ts',
  // The registers end to end, one stack each: the named-holder registers (SheetJS writes the modified
  // CONSOB and CNMV workbooks first, some 10 s of CPU), then the AFM, Norway, Sweden and FCA files: 25 s.
  'test/e2e/registers-pipeline-named.test.ts',
  'test/e2e/registers-pipeline.test.ts',
  // Three hostile register files read again and again by a spawned daemon, then the good ones: about 60 s.
  'test/e2e/registers-hostile.test.ts',
  // Every e-mail template in headless Chromium at two widths, and the web console against a running
  // daemon at 375 and 1280 px, light and dark: about 25 s each.
  'test/browser/*.test.ts',
  // A flap held for its 20 s window, end to end: about 23 s.
  'test/e2e/alerts-threshold-story.test.ts',
  'test/e2e/budget-shared-ledger.test.ts',
  'test/e2e/polling-defences.test.ts',
  'test/e2e/polling-budget.test.ts',
  // Stuck delivery connections (each waits out a liveness timeout, one twice): about 18 s.
  'test/e2e/delivery-liveness.test.ts',
  // A spawned daemon whose every Redis connection freezes (as it starts, once running, mid-send): about 90 s.
  'test/e2e/stuck-exit.test.ts',
  'test/e2e/polling-state.test.ts',
  // Private Redis topologies with spawned daemons: the hash-tag run (every channel kind, a digest, the
  // CLI) and the Cluster, 12-17 s.
  'test/e2e/keys-hash-tag.test.ts',
  'test/e2e/ha-cluster.test.ts',
  // Spawned `check`/`start` processes against bad settings and references: 50-60 s each under load.
  'test/e2e/check-start-references.test.ts',
  'test/e2e/check-start-validation.test.ts',
  'test/e2e/read-only-secrets.test.ts',
  // Out of the unit inner loop: files that spawn the CLI or a daemon (the compose and docker runs, https
  // refusals, the linters on fixture trees) or parse whole registers and scaled days in CPU: 20-60 s each
  // under load, where the rest of `unit` takes about a second a file.
  'test/config/example-deploy-run.test.ts',
  'test/cli/upstream-https.test.ts',
  'test/bench/simulation.test.ts',
  'test/lint/layers.test.ts',
  'test/sandbox/publications.test.ts',
  'test/sources/read-source.test.ts',
  'test/sources/shape-bound.test.ts',
  'test/config/example-docker-run.test.ts',
  'test/state/delivery-record.test.ts',
  'test/cli/cli-findings.test.ts',
  'test/sandbox/register-shape.test.ts',
];

/** `SLOW`'s patterns as regular expressions on a file's path from the root (`*` stays in one directory). */
const SLOW_PATTERNS = SLOW.map(
  (glob) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`),
);

/**
 * Longest first, so that the workers end together: the slow files in `SLOW`'s order, then e2e, then
 * unit (each in Vitest's own order: the last run's durations when cached, else the largest file first).
 * `SLOW`'s patterns know `*` only; a slow file no pattern matches runs after the listed ones.
 */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const path = relative(spec.project.config.root, spec.moduleId).split(sep).join('/');
      const slow = SLOW_PATTERNS.findIndex((pattern) => pattern.test(path));
      if (slow >= 0) return slow;
      const after = ['slow', 'e2e'].indexOf(spec.project.name);
      return SLOW.length + (after >= 0 ? after : 2);
    };
    // Array sort is stable: files of one rank keep Vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    // No root `include`: with `extends: true` arrays are concatenated, so a root include would be
    // added to every project's own. The root config runs no tests itself once it has projects.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The CLI the tests spawn, compiled once (test/helpers/compiled-cli.ts); the census of keys left in
    // Redis, judged after the run (test/helpers/key-census.ts).
    globalSetup: ['test/helpers/compiled-cli.ts', 'test/helpers/key-census.ts'],
    // Vitest's default on a 2-core machine is cpus - 1 = 1 worker. The e2e and slow files mostly wait
    // on child processes and time windows: with 3 forks, slowest first, the whole suite used 47% of 2
    // cores and took 422 s (one file waited out a 90 s timeout); 4 forks took 322 s at 54%.
    // Every file must pass beside the others: none asserts a wall-clock time. Three since 2026-11-28: with
    // four, the suite kept both cores at a load average of 10-14 and a daemon beside Chromium missed its
    // windows (three different files failed in one idle run of three, each passing when run again).
    maxWorkers: 3,
    reporters: ['default'],
    sequence: { sequencer: SlowestFirst },
    projects: [
      {
        extends: true,
        // One module graph per worker, not per file: the unit files share no state but Redis (each its own
        // prefix) and import much of src/, so isolation cost most of their CPU (measured on 2 loaded
        // cores: 4 min 15 s of CPU isolated, 1 min 4 s not, the same 2,935 tests passing).
        test: {
          name: 'unit',
          include: [ALL],
          exclude: [...configDefaults.exclude, E2E, ...SLOW],
          isolate: false,
        },
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
