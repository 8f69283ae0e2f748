import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { probeRedis } from './redis-probe.js';

/** A `redis-server` the demo started for its own lifetime. */
export interface RedisChild {
  url: string;
  port: number;
  pid: number | undefined;
  /** Stops the server (SIGTERM, then SIGKILL after `graceMs`); resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** The first executable file called `name` in the directories of a PATH value, if any. */
export function findOnPath(name: string, pathValue: string | undefined): string | undefined {
  for (const dir of (pathValue ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; keep looking.
    }
  }
  return undefined;
}

/** A TCP port free on 127.0.0.1 right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address for a free port');
  return address.port;
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Sends SIGTERM, then SIGKILL if the child is still there after `graceMs`. */
async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  const done = exited(child);
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await done;
  clearTimeout(timer);
}

/**
 * Starts `binary` on a free 127.0.0.1 port with no persistence, and waits until it answers PING.
 * Should this process exit without stopping it, the child is killed on the way out.
 */
export async function startRedisServer(binary: string, readyTimeoutMs = 10_000): Promise<RedisChild> {
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const child = spawn(binary, [...args, '--maxmemory-policy', 'noeviction'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: Ctrl-C in the terminal must not kill Redis before the demo has cleaned up.
    detached: true,
  });
  // Redis logs to stdout; its last lines explain a failed start.
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-600);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let gone = false;
  const failed = new Promise<string>((resolve) => {
    const fail = (why: string) => {
      gone = true;
      resolve(why);
    };
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code, signal) => fail(`it exited (${code ?? signal}) ${lastLine(output)}`.trim()));
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const url = `redis://127.0.0.1:${port}`;
  const stop = async (graceMs = 2_000) => {
    process.off('exit', killOnExit);
    if (!gone) await stopChild(child, graceMs);
  };
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    const problem = await Promise.race([probeRedis(url, 500), failed]);
    if (problem === undefined) return { url, port, pid: child.pid, stop };
    if (gone || Date.now() > deadline) {
      await stop(500);
      throw new Error(`redis-server did not start on port ${port}: ${problem}`);
    }
    await sleep(100);
  }
}
