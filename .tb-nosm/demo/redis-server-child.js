import { spawn } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { createServer } from "node:net";
import { delimiter, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { probeRedis } from "./redis-probe.js";
function findOnPath(name, pathValue) {
  for (const dir of (pathValue ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
    }
  }
  return void 0;
}
async function freePort() {
  const server = createServer();
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no TCP address for a free port");
  return address.port;
}
function lastLine(text) {
  return text.trim().split("\n").at(-1) ?? "";
}
function exited(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}
async function stopChild(child, graceMs) {
  const done = exited(child);
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await done;
  clearTimeout(timer);
}
async function startRedisServer(binary, readyTimeoutMs = 1e4) {
  const port = await freePort();
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"];
  const child = spawn(binary, [...args, "--maxmemory-policy", "noeviction"], {
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group: Ctrl-C in the terminal must not kill Redis before the demo has cleaned up.
    detached: true
  });
  let output = "";
  const keep = (chunk) => {
    output = (output + chunk.toString("utf8")).slice(-600);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let gone = false;
  const failed = new Promise((resolve) => {
    const fail = (why) => {
      gone = true;
      resolve(why);
    };
    child.once("error", (error) => fail(error.message));
    child.once("exit", (code, signal) => fail(`it exited (${code ?? signal}) ${lastLine(output)}`.trim()));
  });
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const url = `redis://127.0.0.1:${port}`;
  const stop = async (graceMs = 2e3) => {
    process.off("exit", killOnExit);
    if (!gone) await stopChild(child, graceMs);
  };
  const deadline = Date.now() + readyTimeoutMs;
  for (; ; ) {
    const problem = await Promise.race([probeRedis(url, 500), failed]);
    if (problem === void 0) return { url, port, pid: child.pid, stop };
    if (gone || Date.now() > deadline) {
      await stop(500);
      throw new Error(`redis-server did not start on port ${port}: ${problem}`);
    }
    await sleep(100);
  }
}
export {
  findOnPath,
  freePort,
  startRedisServer
};
