import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { z } from "zod";
import { SECOND_MS } from "../time/units.js";
const IDLE_MS = 30 * SECOND_MS;
const outcomeSchema = z.union([
  z.object({
    status: z.literal("read"),
    snapshot: z.custom((value) => typeof value === "object" && value !== null)
  }),
  z.object({
    status: z.literal("not-read"),
    reason: z.custom((value) => typeof value === "string"),
    detail: z.string()
  })
]);
let idle;
function readIsolated(request, limits) {
  const thread = takeThread(limits.maxMemory);
  const { worker } = thread;
  return new Promise((resolve) => {
    const settle = (outcome, reusable) => {
      clearTimeout(timer);
      worker.off("message", onMessage).off("error", onError).off("exit", onExit);
      if (reusable) release(thread);
      else void worker.terminate();
      resolve(outcome);
    };
    const onMessage = (message) => {
      const outcome = outcomeSchema.safeParse(message);
      if (outcome.success) settle(outcome.data, true);
      else settle(notRead("unparseable", "the parser answered nothing readable"), false);
    };
    const onError = (error) => settle(threadFailure(error, limits.maxMemory), false);
    const onExit = (code) => settle(notRead("unparseable", `the parser stopped (exit code ${code})`), false);
    const timer = setTimeout(
      () => settle(notRead("timeout", `the file was not parsed within ${limits.timeout} ms`), false),
      limits.timeout
    );
    worker.on("message", onMessage).on("error", onError).on("exit", onExit);
    worker.postMessage(request);
  });
}
function takeThread(maxMemory) {
  const waiting = idle;
  idle = void 0;
  if (waiting !== void 0) {
    clearTimeout(waiting.timer);
    if (waiting.thread.maxMemory === maxMemory) {
      waiting.thread.worker.ref();
      return waiting.thread;
    }
    void waiting.thread.worker.terminate();
  }
  return startThread(maxMemory);
}
function release(thread) {
  if (idle !== void 0) {
    void thread.worker.terminate();
    return;
  }
  thread.worker.unref();
  const timer = setTimeout(() => {
    if (idle?.thread !== thread) return;
    idle = void 0;
    void thread.worker.terminate();
  }, IDLE_MS);
  timer.unref();
  idle = { thread, timer };
}
function startThread(maxMemory) {
  const entry = workerEntry();
  const worker = new Worker(entry.source, {
    eval: entry.eval,
    resourceLimits: { maxOldGenerationSizeMb: maxMemory, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    // What a parser prints (SheetJS warns on odd zips) is not the daemon's log.
    stdout: true,
    stderr: true
  });
  const thread = { worker, maxMemory };
  worker.on("error", () => void 0);
  worker.on("exit", () => {
    if (idle?.thread !== thread) return;
    clearTimeout(idle.timer);
    idle = void 0;
  });
  return thread;
}
function threadFailure(error, maxMemory) {
  if ("code" in error && error.code === "ERR_WORKER_OUT_OF_MEMORY")
    return notRead("too-large", `parsing the file needs more than ${maxMemory} MiB`);
  return notRead("unparseable", `the parser failed: ${error.message}`);
}
function notRead(reason, detail) {
  return { status: "not-read", reason, detail };
}
function workerEntry() {
  const here = import.meta.url;
  if (!here.endsWith(".ts")) return { source: new URL("./parse-worker.js", here), eval: false };
  const tsx = pathToFileURL(
    createRequire(here).resolve("tsx/esm/api").replace(/\.cjs$/, ".mjs")
  ).href;
  const worker = new URL("./parse-worker.ts", here).href;
  const code = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(worker)}); });`;
  return { source: code, eval: true };
}
export {
  readIsolated
};
