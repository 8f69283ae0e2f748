import { createServer } from 'node:http';
import { DAY_MS } from '../time/units.js';
import { Delays } from './delays.js';
import { FaultQueue, type Faults } from './faults.js';
import { createHandler } from './handler.js';
import { startPublications } from './publication-timer.js';
import { FixedWindowLimiter } from './rate-limiter.js';
import { createScenario, type Scenario } from './scenario.js';
import { RequestLog, type RequestStats } from './stats.js';

/** The key the sandbox accepts unless told otherwise. */
export const DEFAULT_SANDBOX_KEY = 'sandbox-key';

/** A key the sandbox knows but whose plan lacks API access (answers 403) unless told otherwise. */
export const DEFAULT_NO_API_KEY = 'sandbox-no-api';

/** How to run a sandbox; every field has a default. */
export interface SandboxOptions {
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0 (an ephemeral port). */
  port?: number;
  /** Defaults ['sandbox-key'] and ['sandbox-no-api']. */
  keys?: { valid?: string[]; noApiAccess?: string[] };
  /** Per key; defaults 100 per minute, 1,000 per day, windows of 60,000 and 86,400,000 ms. */
  limits?: { perMinute?: number; perDay?: number; minuteMs?: number; dayMs?: number };
  /** Default true: a 429 carries Retry-After (whole seconds to the window's reset). */
  retryAfterHeader?: boolean;
  /** Default createScenario({ seed: 1 }). */
  scenario?: Scenario;
  /**
   * When set, the scenario steps every this many ms (on an unref'd timer). A scenario on a publication
   * schedule (`ScenarioOptions.publications`) publishes on its own, by `now`.
   */
  stepEvery?: number;
  /** The clock for rate limits and stats; default Date.now. */
  now?: () => number;
}

/** A running sandbox. */
export interface Sandbox {
  /** Base URL, e.g. `http://127.0.0.1:53211`. */
  url: string;
  port: number;
  scenario: Scenario;
  faults: Faults;
  stats: RequestStats;
  close(): Promise<void>;
}

/** Starts a simulator of the upstream service on a local port; it prints nothing. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const scenario = options.scenario ?? createScenario({ seed: 1 });
  const faults = new FaultQueue();
  const stats = new RequestLog();
  const delays = new Delays();
  const limits = options.limits ?? {};
  const limiter = new FixedWindowLimiter({
    perMinute: limits.perMinute ?? 100,
    perDay: limits.perDay ?? 1000,
    minuteMs: limits.minuteMs ?? 60_000,
    dayMs: limits.dayMs ?? DAY_MS,
  });
  const keys = {
    valid: new Set(options.keys?.valid ?? [DEFAULT_SANDBOX_KEY]),
    noApiAccess: new Set(options.keys?.noApiAccess ?? [DEFAULT_NO_API_KEY]),
  };
  const handler = createHandler({
    scenario,
    faults,
    stats,
    limiter,
    keys,
    retryAfterHeader: options.retryAfterHeader ?? true,
    now: options.now ?? Date.now,
    delays,
  });
  const server = createServer(handler);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('sandbox server has no TCP address');
  const stepper = options.stepEvery ? setInterval(() => scenario.step(), options.stepEvery) : undefined;
  stepper?.unref();
  const publisher = startPublications(scenario, options.now ?? Date.now);
  const urlHost = host.includes(':') ? `[${host}]` : host;
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
    },
  };
}
