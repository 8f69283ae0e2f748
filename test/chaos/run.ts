import { parseArgs } from 'node:util';
import { runChaos } from './engine.js';
import { LONG, seedFrom } from './profiles.js';

/**
 * `npm run chaos [-- --seed N --steps N --issuers N --workers N --no-redis-pause --logs DIR]`: the long chaos run,
 * printed as it happens. Redis pauses stop every user of that Redis: point REDIS_URL at a Redis of its
 * own, or pass --no-redis-pause.
 */
async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      steps: { type: 'string' },
      issuers: { type: 'string' },
      workers: { type: 'string' },
      'no-redis-pause': { type: 'boolean', default: false },
      logs: { type: 'string' },
    },
  });
  const seed = seedFrom(values.seed ?? process.env.CHAOS_SEED);
  const count = (value: string | undefined, fallback: number) =>
    value !== undefined && Number.isInteger(Number(value)) && Number(value) > 0 ? Number(value) : fallback;
  const noPause = values['no-redis-pause'] === true;
  const profile = {
    ...LONG,
    steps: count(values.steps, LONG.steps),
    issuers: count(values.issuers, LONG.issuers),
    workers: count(values.workers, LONG.workers),
    mustInclude: noPause ? LONG.mustInclude.filter((f) => f !== 'redis-pause') : LONG.mustInclude,
  };
  const flags = [
    `--seed ${seed}`,
    values.steps ? `--steps ${profile.steps}` : '',
    values.issuers ? `--issuers ${profile.issuers}` : '',
    values.workers ? `--workers ${profile.workers}` : '',
    noPause ? '--no-redis-pause' : '',
  ].filter(Boolean);
  if (!noPause) {
    console.log(
      `note: this run pauses the whole Redis at ${process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'} for 32 s at a time (CLIENT PAUSE); use a Redis of its own or --no-redis-pause`,
    );
  }
  const report = await runChaos({
    seed,
    profile,
    stepTimeoutMs: 240_000,
    drainTimeoutMs: 180_000,
    replay: `npm run chaos -- ${flags.join(' ')}`,
    echo: (line) => console.log(line),
    logDir: values.logs,
  });
  console.log(
    report.ok
      ? `\nPASS (seed ${seed})`
      : `\nFAIL (seed ${seed}): replay with npm run chaos -- ${flags.join(' ')}`,
  );
  return report.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
