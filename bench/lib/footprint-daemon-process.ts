import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { z } from 'zod';

/** One line printed by bench/footprint-daemon.ts. */
export const memorySampleSchema = z.object({
  at: z.number(),
  rss: z.number(),
  heapUsed: z.number(),
  heapTotal: z.number(),
  external: z.number(),
  cpuMs: z.number(),
});

/** A memory sample of the daemon. */
export type MemorySample = z.infer<typeof memorySampleSchema>;

/** The daemon child: its process, its exit, the tail of its standard error. */
export interface FootprintDaemon {
  child: ChildProcess;
  exited: Promise<void>;
  stderr: () => string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Runs bench/footprint-daemon.ts in a child node with --expose-gc; `onSample` sees each memory line. */
export function spawnFootprintDaemon(
  configPath: string,
  sampleMs: number,
  onSample: (sample: MemorySample) => void,
): FootprintDaemon {
  const script = new URL('../footprint-daemon.ts', import.meta.url).pathname;
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', script, configPath, String(sampleMs)],
    {
      cwd: new URL('../..', import.meta.url).pathname,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    err = (err + chunk.toString('utf8')).slice(-4000);
  });
  if (child.stdout) {
    createInterface({ input: child.stdout }).on('line', (line) => {
      try {
        const parsed = memorySampleSchema.safeParse(JSON.parse(line));
        if (parsed.success) onSample(parsed.data);
      } catch {
        // Not a sample line.
      }
    });
  }
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    child,
    exited,
    stderr: () => err,
    async stop(graceMs = 15_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
