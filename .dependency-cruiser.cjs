// The architecture of src/, as rules the build enforces (`npm run lint` runs `depcruise src`).
// docs/architecture.md ("Module map") draws the same layers; change both together.
//
// Layers, bottom to top (a layer imports only layers below it, and the rules below say what more):
//   base      config, time, text
//   pure      positions, routing (no I/O)
//   edges     upstream, sources, channels, sandbox, telemetry (talk to the outside; no Redis, no polling)
//   state     every Redis store
//   policy    budget, then schedule (the sweep's policy spends the budget), record (the record read back)
//   work      jobs (sweep and poll), delivery (outboxes drained), preflight (start-up checks), lookup (an
//             issuer or holder a user named, for the CLI and the console)
//   root      src/app.ts, src/app/ and the other files at src/'s top: the composition root
//   top       ops, console, cli, demo; src/main.ts

const IO_BUILTINS = '^(node:)?(net|http|https|http2|fs|fs/promises|child_process|tls|dgram|dns|worker_threads)$';
const TOP = '^src/(ops|console|cli|demo)/';
const WORK = '^src/(jobs|delivery|preflight|lookup)/';

// The composition root: src/app.ts with its parts in src/app/, and the other files at src/'s top.
const COMPOSITION_ROOT = '^src/([^/]+[.]ts$|app/)';
// Who may import the composition root: the CLI and the demo build an App; the console's pages read the
// whole App they are handed (ops reads narrow interfaces instead: StatusSource, OpsSource).
const BUILDS_OR_READS_APP = '^src/(cli|demo|console)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'pure-core-has-no-io',
      comment:
        'positions and routing are pure decisions: no Redis, queues, HTTP, files or senders. They may read ' +
        "config, the time helpers, each other (routing uses positions) and the upstream's wire schemas.",
      severity: 'error',
      from: { path: '^src/(positions|routing)/' },
      to: {
        pathNot: [
          '^src/(positions|routing|config|time|text)/',
          '^src/upstream/schemas[.]ts$',
          '^node_modules/(zod)/',
        ],
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'pure-core-has-no-io-builtins',
      comment: 'positions and routing import no Node module that does I/O (crypto for hashing is fine).',
      severity: 'error',
      from: { path: '^src/(positions|routing)/' },
      to: { dependencyTypes: ['core'], path: IO_BUILTINS },
    },
    {
      name: 'positions-is-below-routing',
      comment: 'Routing decides over events; the events and their diff know nothing of routing.',
      severity: 'error',
      from: { path: '^src/positions/' },
      to: { path: '^src/routing/' },
    },
    {
      name: 'state-imports-config-positions-and-redis',
      comment:
        'The Redis stores know config, the pure data they store (positions, routing, the upstream, register and ' +
        'channel schemas and types) and Redis: never a sender, a job, the budget or anything above.',
      severity: 'error',
      from: { path: '^src/state/' },
      to: {
        pathNot: [
          '^src/(state|config|time|text|positions|routing|telemetry)/',
          '^src/upstream/schemas[.]ts$',
          '^src/sources/types[.]ts$',
          '^src/channels/(types|message-schema)[.]ts$',
          '^node_modules/',
        ],
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'state-uses-no-other-io',
      comment: 'state talks to Redis only: no queues, HTTP clients or mail.',
      severity: 'error',
      from: { path: '^src/state/' },
      to: { path: '^node_modules/(bullmq|undici|nodemailer|@slack/webhook|smtp-server|mailparser)/' },
    },
    {
      name: 'channels-know-nothing-of-polling-or-redis',
      comment: 'A channel renders and sends one message; polling, outboxes and Redis are the layers above.',
      severity: 'error',
      from: { path: '^src/channels/' },
      to: {
        path: [
          '^src/(jobs|state|delivery|budget|schedule|record|preflight|lookup|sources|sandbox)/',
          '^node_modules/(bullmq|ioredis)/',
        ],
      },
    },
    {
      name: 'edges-are-below-state',
      comment: "upstream, sources, sandbox and telemetry talk to the outside and know nothing of the daemon's state.",
      severity: 'error',
      from: { path: '^src/(upstream|sources|sandbox|telemetry|config|time|text)/' },
      to: {
        path: [
          '^src/(state|jobs|delivery|budget|schedule|record|preflight|lookup)/',
          '^node_modules/(bullmq|ioredis)/',
        ],
      },
    },
    {
      name: 'base-is-the-bottom',
      comment:
        'config, time and text are the bottom layer: usable from everywhere, so they import no other layer.',
      severity: 'error',
      from: { path: '^src/(config|time|text)/' },
      to: { path: '^src/', pathNot: '^src/(config|time|text)/' },
    },
    {
      name: 'budget-is-below-schedule',
      comment: "The budget counts requests; the sweep's schedule decides how to spend them, never the reverse.",
      severity: 'error',
      from: { path: '^src/budget/' },
      to: { path: ['^src/(schedule|record)/', WORK] },
    },
    {
      name: 'policy-is-below-the-work',
      comment: 'budget, schedule and record are used by jobs, delivery and the top; they import none of them.',
      severity: 'error',
      from: { path: '^src/(budget|schedule|record)/' },
      to: { path: WORK },
    },
    {
      name: 'jobs-and-delivery-are-apart',
      comment:
        'Polling writes outboxes and delivery drains them: they meet in state only, so neither imports the other.',
      severity: 'error',
      from: { path: '^src/(jobs|delivery)/' },
      to: { path: '^src/(jobs|delivery)/', pathNot: ['^src/$1/'] },
    },
    {
      name: 'work-is-below-the-top',
      comment: 'jobs, delivery, preflight and lookup serve the composition root and the top; they import neither.',
      severity: 'error',
      from: { path: WORK },
      to: { path: [TOP, COMPOSITION_ROOT] },
    },
    {
      name: 'nothing-below-imports-the-top',
      comment: 'ops, console, cli and demo sit on top: only they, the composition root and main.ts import them.',
      severity: 'error',
      from: { path: '^src/', pathNot: [TOP, COMPOSITION_ROOT] },
      to: { path: TOP },
    },
    {
      name: 'composition-root-is-imported-from-the-top',
      comment:
        "src/app.ts, src/app/ and the helpers at src/'s top wire the parts; only main.ts, the CLI and the demo " +
        "(which build an App) and the console's pages (which read the App they are handed) import them; ops " +
        'and the layers below never do.',
      severity: 'error',
      from: { path: '^src/', pathNot: [BUILDS_OR_READS_APP, COMPOSITION_ROOT] },
      to: { path: COMPOSITION_ROOT },
    },
    {
      name: 'cli-is-the-outermost',
      comment: 'The command line is imported by main.ts and the demo only: the console and ops share lower homes.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/(cli|demo)/', '^src/main[.]ts$'] },
      to: { path: '^src/cli/' },
    },
    {
      name: 'demo-is-imported-by-main-only',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/demo/', '^src/main[.]ts$'] },
      to: { path: '^src/demo/' },
    },
    {
      name: 'nothing-imports-main',
      severity: 'error',
      from: {},
      to: { path: '^src/main[.]ts$' },
    },
    {
      name: 'no-circular',
      comment: 'Import cycles make the order of evaluation matter (madge checks the same in `npm run cycles`).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    // Subpath exports such as csv-parse/sync resolve through package.json "exports", as Node does.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
