import { createServer } from "node:http";
import { DAY_MS } from "../time/units.js";
import { Delays } from "./delays.js";
import { FaultQueue } from "./faults.js";
import { createHandler } from "./handler.js";
import { startPublications } from "./publication-timer.js";
import { FixedWindowLimiter } from "./rate-limiter.js";
import { createScenario } from "./scenario.js";
import { RequestLog } from "./stats.js";
const DEFAULT_SANDBOX_KEY = "sandbox-key";
const DEFAULT_NO_API_KEY = "sandbox-no-api";
async function startSandbox(options = {}) {
  const scenario = options.scenario ?? createScenario({ seed: 1 });
  const faults = new FaultQueue();
  const stats = new RequestLog();
  const delays = new Delays();
  const limits = options.limits ?? {};
  const limiter = new FixedWindowLimiter({
    perMinute: limits.perMinute ?? 100,
    perDay: limits.perDay ?? 1e3,
    minuteMs: limits.minuteMs ?? 6e4,
    dayMs: limits.dayMs ?? DAY_MS
  });
  const keys = {
    valid: new Set(options.keys?.valid ?? [DEFAULT_SANDBOX_KEY]),
    noApiAccess: new Set(options.keys?.noApiAccess ?? [DEFAULT_NO_API_KEY])
  };
  const handler = createHandler({
    scenario,
    faults,
    stats,
    limiter,
    keys,
    retryAfterHeader: options.retryAfterHeader ?? true,
    now: options.now ?? Date.now,
    delays
  });
  const server = createServer(handler);
  const host = options.host ?? "127.0.0.1";
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("sandbox server has no TCP address");
  const stepper = options.stepEvery ? setInterval(() => scenario.step(), options.stepEvery) : void 0;
  stepper?.unref();
  const publisher = startPublications(scenario, options.now ?? Date.now);
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    scenario,
    faults,
    stats,
    close: () => {
      clearInterval(stepper);
      publisher?.stop();
      delays.releaseAll();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
  };
}
export {
  DEFAULT_NO_API_KEY,
  DEFAULT_SANDBOX_KEY,
  startSandbox
};
