// A shortwatch daemon in a process of its own, for the footprint benchmark: it runs `start` in-process
// and prints its memory (after a full GC when node runs with --expose-gc) as one JSON line per sample.
// Usage: node --expose-gc --import tsx bench/footprint-daemon.ts <config.yaml> <sample ms>
import { App } from '../src/app.js';
import { loadConfig } from '../src/config/load.js';
import { silentLogger } from '../src/telemetry/logger.js';

const [configPath, sampleArg] = process.argv.slice(2);
if (!configPath) {
  process.stderr.write('usage: footprint-daemon.ts <config.yaml> [sample ms]\n');
  process.exit(2);
}
const sampleMs = Number(sampleArg ?? 1000);
const app = await App.open(loadConfig(configPath), { logger: silentLogger() });
await app.startDaemon({ workerOnly: false });

function sample(): void {
  gc?.();
  const m = process.memoryUsage();
  const cpu = process.cpuUsage();
  const line = {
    at: Date.now(),
    rss: m.rss,
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    external: m.external,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
sample();
const timer = setInterval(sample, sampleMs);
process.on('SIGTERM', () => {
  clearInterval(timer);
  void app.stop(5_000).then(() => process.exit(0));
});
