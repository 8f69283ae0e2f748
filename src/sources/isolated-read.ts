import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import type { RegisterParseConfig } from '../config/schema/sources.js';
import { SECOND_MS } from '../time/units.js';
import type { NotReadReason } from './errors.js';
import type { ReadOutcome } from './health.js';
import type { ParseRequest } from './parse-request.js';
import type { RegisterSnapshot } from './types.js';

/** The limits one parsing thread runs under. */
export type ThreadLimits = Pick<RegisterParseConfig, 'timeout' | 'maxMemory'>;

/**
 * How long a thread that answered waits for the next file before it ends: a source read again soon (a
 * pair's second file, a short interval, `shortwatch check`) does not pay a thread's start-up again,
 * and an hourly register holds no thread between its reads.
 */
const IDLE_MS = 30 * SECOND_MS;

const outcomeSchema = z.union([
  z.object({
    status: z.literal('read'),
    snapshot: z.custom<RegisterSnapshot>((value) => typeof value === 'object' && value !== null),
  }),
  z.object({
    status: z.literal('not-read'),
    reason: z.custom<NotReadReason>((value) => typeof value === 'string'),
    detail: z.string(),
  }),
]);

interface Thread {
  worker: Worker;
  maxMemory: number;
}

/** The one thread waiting for work, if any, and when it gives up. */
let idle: { thread: Thread; timer: NodeJS.Timeout } | undefined;

/**
 * Decodes, parses and checks one fetched file in a worker thread: the bytes of a stranger never run on
 * the event loop that answers `/healthz`, delivers and polls. The thread has `maxMemory` MiB of heap and
 * `timeout` ms for the file; past either it is stopped and the file is "not read" (`too-large`,
 * `timeout`). Never throws.
 */
export function readIsolated(request: ParseRequest, limits: ThreadLimits): Promise<ReadOutcome> {
  const thread = takeThread(limits.maxMemory);
  const { worker } = thread;
  return new Promise((resolve) => {
    const settle = (outcome: ReadOutcome, reusable: boolean) => {
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      if (reusable) release(thread);
      // Ends the thread whatever it is doing; its heap goes with it.
      else void worker.terminate();
      resolve(outcome);
    };
    const onMessage = (message: unknown) => {
      const outcome = outcomeSchema.safeParse(message);
      if (outcome.success) settle(outcome.data, true);
      else settle(notRead('unparseable', 'the parser answered nothing readable'), false);
    };
    const onError = (error: Error) => settle(threadFailure(error, limits.maxMemory), false);
    const onExit = (code: number) =>
      settle(notRead('unparseable', `the parser stopped (exit code ${code})`), false);
    const timer = setTimeout(
      () => settle(notRead('timeout', `the file was not parsed within ${limits.timeout} ms`), false),
      limits.timeout,
    );
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage(request);
  });
}

function takeThread(maxMemory: number): Thread {
  const waiting = idle;
  idle = undefined;
  if (waiting !== undefined) {
    clearTimeout(waiting.timer);
    if (waiting.thread.maxMemory === maxMemory) {
      waiting.thread.worker.ref();
      return waiting.thread;
    }
    void waiting.thread.worker.terminate();
  }
  return startThread(maxMemory);
}

function release(thread: Thread): void {
  if (idle !== undefined) {
    void thread.worker.terminate();
    return;
  }
  // An idle thread never keeps the process alive.
  thread.worker.unref();
  const timer = setTimeout(() => {
    if (idle?.thread !== thread) return;
    idle = undefined;
    void thread.worker.terminate();
  }, IDLE_MS);
  timer.unref();
  idle = { thread, timer };
}

function startThread(maxMemory: number): Thread {
  const entry = workerEntry();
  const worker = new Worker(entry.source, {
    eval: entry.eval,
    resourceLimits: { maxOldGenerationSizeMb: maxMemory, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    // What a parser prints (SheetJS warns on odd zips) is not the daemon's log.
    stdout: true,
    stderr: true,
  });
  const thread = { worker, maxMemory };
  // An idle thread that fails or ends is forgotten; one at work is settled by its read's listeners.
  worker.on('error', () => undefined);
  worker.on('exit', () => {
    if (idle?.thread !== thread) return;
    clearTimeout(idle.timer);
    idle = undefined;
  });
  return thread;
}

function threadFailure(error: Error, maxMemory: number): ReadOutcome {
  if ('code' in error && error.code === 'ERR_WORKER_OUT_OF_MEMORY')
    return notRead('too-large', `parsing the file needs more than ${maxMemory} MiB`);
  return notRead('unparseable', `the parser failed: ${error.message}`);
}

function notRead(reason: NotReadReason, detail: string): ReadOutcome {
  return { status: 'not-read', reason, detail };
}

/**
 * The worker's module beside this one: `parse-worker.js` in a compiled tree (`dist/`, the tests'
 * `.test-build/`); in the sources, `parse-worker.ts` loaded through tsx, registered in the thread itself
 * (a worker inherits no loader registered with `tsx/esm/api`, the way `bin/shortwatch.js` and vitest run).
 */
function workerEntry(): { source: URL | string; eval: boolean } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { source: new URL('./parse-worker.js', here), eval: false };
  // The ESM build of tsx's API (its CommonJS build registers a path that does not resolve in a thread).
  const tsx = pathToFileURL(
    createRequire(here)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const worker = new URL('./parse-worker.ts', here).href;
  const code = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(worker)}); });`;
  return { source: code, eval: true };
}
