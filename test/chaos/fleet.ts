import { createWriteStream } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { stateKeys } from '../../src/state/keys.js';
import { type DaemonProcess, spawnShortwatch, waitFor } from '../e2e/harness.js';

/** How long a member may take to start: each compiles the tree through tsx, slow on a loaded machine. */
const START_TIMEOUT_MS = 90_000;
/** How often a member that exits while starting is started again, and how long after its exit. */
const START_ATTEMPTS = 10;
const RESTART_DELAY_MS = 1_000;

/** One shortwatch process of the fleet: the `start` daemon or a `worker`. */
export interface Member {
  name: string;
  role: 'start' | 'worker';
  process: DaemonProcess | undefined;
  /** How many times this member was started. */
  starts: number;
  /** Lines the member logged at error level or above, over all its lives. */
  errors: string[];
  /** A fault is killing or restarting it right now. */
  busy: boolean;
}

/**
 * Real shortwatch processes (`start` plus workers) on one config, as an operator runs them: each can be
 * SIGKILLed and started again. A member is ready once its heartbeat record (written after its workers
 * started) is in Redis.
 */
export class Fleet {
  readonly members: Member[];
  readonly #configPath: string;
  readonly #redis: Redis;
  readonly #root: string;
  readonly #logDir: string | undefined;

  constructor(options: {
    configPath: string;
    redis: Redis;
    /** The deployment's hash-tagged key root. */
    root: string;
    workers: number;
    logDir?: string;
  }) {
    this.#configPath = options.configPath;
    this.#logDir = options.logDir;
    this.#redis = options.redis;
    this.#root = options.root;
    const worker = (i: number): Member => ({
      name: `worker-${i}`,
      role: 'worker',
      process: undefined,
      starts: 0,
      errors: [],
      busy: false,
    });
    this.members = [
      { name: 'daemon', role: 'start', process: undefined, starts: 0, errors: [], busy: false },
      ...Array.from({ length: options.workers }, (_, i) => worker(i + 1)),
    ];
  }

  /** Starts every member and waits until all are ready. */
  async startAll(): Promise<void> {
    await Promise.all(this.members.map((m) => this.start(m)));
  }

  /**
   * Starts one member (again) and waits until it is ready. Like a supervisor (systemd's
   * `Restart=on-failure`, a Kubernetes pod), a member that exits while starting is started again after a
   * second: a restart that lands in a Redis outage exits 1 ("Redis does not answer"), by design.
   */
  async start(member: Member): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      const started = await this.#startOnce(member);
      if (started.ready) return started.pid;
      if (attempt >= START_ATTEMPTS) {
        throw new Error(`${member.name} exited at start ${attempt} times; last:\n${started.stderr}`);
      }
      await sleep(RESTART_DELAY_MS);
    }
  }

  async #startOnce(member: Member): Promise<{ ready: true; pid: number } | { ready: false; stderr: string }> {
    const child = spawnShortwatch([member.role, '-c', this.#configPath]);
    member.process = child;
    member.starts++;
    collectErrors(child, member);
    const pid = child.child.pid;
    if (this.#logDir) {
      const log = createWriteStream(join(this.#logDir, `${member.name}.log`), { flags: 'a' });
      log.write(`=== ${member.name} start #${member.starts}, pid ${pid}, ${new Date().toISOString()}\n`);
      child.child.stderr?.pipe(log);
    }
    if (pid === undefined) throw new Error(`${member.name} did not start`);
    // A process id is `<host>-<pid>-<random>`: the random part names the incarnation.
    const field = `${hostname()}-${pid}-`;
    let exited = false;
    await waitFor(
      `${member.name} (pid ${pid}) to be ready`,
      async () => {
        exited = child.child.exitCode !== null;
        if (exited) return true;
        const ids = await this.#redis.hkeys(stateKeys(this.#root).workers);
        return ids.some((id) => id.startsWith(field));
      },
      START_TIMEOUT_MS,
      100,
    );
    return exited ? { ready: false, stderr: child.stderr().slice(-2000) } : { ready: true, pid };
  }

  /** SIGKILLs one member and waits for it to be gone; its pid, or undefined when it was not running. */
  async kill(member: Member): Promise<number | undefined> {
    const child = member.process;
    if (!child || child.child.exitCode !== null || child.child.signalCode !== null) return undefined;
    child.kill('SIGKILL');
    await child.exited;
    return child.child.pid;
  }

  /** The pid of a running member. */
  pid(member: Member): number | undefined {
    return member.process?.child.pid;
  }

  /** SIGTERM to all, then SIGKILL to any still running after `graceMs`. */
  async stopAll(graceMs = 5_000): Promise<void> {
    await Promise.all(
      this.members.map(async (member) => {
        const child = member.process;
        if (!child || child.child.exitCode !== null || child.child.signalCode !== null) return;
        child.kill('SIGTERM');
        const done = await Promise.race([child.exited.then(() => true), sleep(graceMs).then(() => false)]);
        if (!done) {
          child.kill('SIGKILL');
          await child.exited;
        }
      }),
    );
  }
}

/** Keeps the error-level JSON log lines of a member (pino level 50 and above). */
function collectErrors(child: DaemonProcess, member: Member): void {
  let pending = '';
  child.child.stderr?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (/"level":(5\d|60)/.test(line) || !line.startsWith('{')) member.errors.push(line.slice(0, 500));
    }
  });
}
