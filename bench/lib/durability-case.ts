// One case of bench/durability.ts, in a process of its own: REDIS_URL (read by the test harness when it
// loads) names the private master, SHORTWATCH_BENCH_REPLICAS the `redis.durability.replicas` to run with.
// Prints the lone-event and burst figures as one JSON line.
import { runBurst } from './e2e-burst.js';
import { runLone } from './e2e-lone.js';

const replicas = Number(process.env.SHORTWATCH_BENCH_REPLICAS ?? '0');
const quick = process.env.SHORTWATCH_BENCH_QUICK === '1';
const patch = (config: Record<string, unknown>) => {
  const redis = typeof config.redis === 'object' && config.redis !== null ? config.redis : {};
  return { ...config, redis: { ...redis, durability: { replicas } } };
};
const progress = (line: string) => process.stderr.write(`${line}\n`);
const lone = await runLone(50, quick ? 5 : 20, 100, progress, patch);
const burst = await runBurst(
  { watched: 200, changed: quick ? 50 : 100, rounds: quick ? 1 : 2 },
  progress,
  patch,
);
process.stdout.write(`${JSON.stringify({ replicas, lone, burst })}\n`);
process.exit(0);
