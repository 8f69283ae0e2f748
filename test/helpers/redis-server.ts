import { type ChildProcess, spawn } from 'node:child_process';
import { findOnPath, freePort } from '../../src/demo/redis-server-child.js';
import { waitFor } from '../e2e/harness.js';

/** The `redis-server` on PATH, if any: tests that need a private one skip without it. */
export const REDIS_SERVER = findOnPath('redis-server', process.env.PATH);

/** A `redis-server` of one test's own, on a fixed loopback port, that it may stop and start again. */
export interface PrivateRedis {
  port: number;
  /** `redis://[:password@]127.0.0.1:<port>`. */
  url: string;
  /** Pid of the running server (undefined while stopped). */
  pid(): number | undefined;
  /**
   * Stops it by pid with `signal` (SIGTERM by default, SIGKILL after 5 s); resolves once it has exited.
   * SIGKILL is a crash: nothing is written at exit, so only what persistence already holds survives.
   */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /**
   * Starts it again on the same port with the same arguments: its data is gone, unless `args` turned
   * persistence on (`--appendonly yes --dir <dir>`), when it loads what the files hold.
   */
  start(): Promise<void>;
}

/**
 * Starts `redis-server` on a free 127.0.0.1 port without persistence, plus `args` (e.g.
 * `['--maxmemory-policy', 'allkeys-lru']`, `['--requirepass', 'pw']`; later arguments win, so
 * `['--appendonly', 'yes', '--dir', dir]` persists), and waits until it is ready.
 */
export async function startPrivateRedis(args: string[] = [], password?: string): Promise<PrivateRedis> {
  if (!REDIS_SERVER) throw new Error('no redis-server on PATH');
  const binary = REDIS_SERVER;
  const port = await freePort();
  let child: ChildProcess | undefined;
  const killOnExit = () => child?.kill('SIGKILL');

  const start = async () => {
    const argv = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...args];
    const started = spawn(binary, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    let output = '';
    started.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    process.once('exit', killOnExit);
    await waitFor(`redis-server on port ${port}`, () => {
      if (started.exitCode !== null) throw new Error(`redis-server exited: ${output.slice(-400)}`);
      return output.includes('Ready to accept connections');
    });
  };

  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const running = child;
    child = undefined;
    process.off('exit', killOnExit);
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    if (running.pid !== undefined) process.kill(running.pid, signal);
    const timer = setTimeout(() => running.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  await start();
  const auth = password === undefined ? '' : `:${encodeURIComponent(password)}@`;
  return { port, url: `redis://${auth}127.0.0.1:${port}`, pid: () => child?.pid, stop, start };
}
