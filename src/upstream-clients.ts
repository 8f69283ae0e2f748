import { type AccessState, accessFingerprint, createBudgetGuard, type RateBudget } from './budget/index.js';
import { formatDuration } from './config/duration.js';
import type { Config, UpstreamConfig } from './config/schema.js';
import type { Notices } from './state/notices.js';
import type { Logger } from './telemetry/logger.js';
import type { Metrics } from './telemetry/metrics.js';
import {
  createUpstreamClient,
  isRateLimitedError,
  isSchemaError,
  NoUpstreamError,
  type UpstreamClient,
} from './upstream/index.js';

/** The notice of a 429 without Retry-After: requests held until a probe's answer ends probing. */
export const RATE_LIMITED_NOTICE = 'upstream-rate-limited';

/** What that notice says when the upstream answers again. */
export const RATE_LIMIT_LIFTED = 'The upstream answers again; polling resumes.';

/** Which budget rules an upstream client follows. */
export type ClientRole = 'polling' | 'probe' | 'interactive';

/** What the guarded clients report to. */
export interface ClientDeps {
  budget: RateBudget;
  access: AccessState;
  notices: Notices;
  logger: Logger;
  metrics: Metrics;
  now: () => Date;
}

/**
 * The fingerprint of a config without `upstream` (registers only): no credential's, so no daemon records
 * or counts in a ledger (state/deployment-ledger.ts takes only a credential's).
 */
export const NO_UPSTREAM_FINGERPRINT = 'no-upstream';

/**
 * Fingerprint of the configured upstream URL and key (a revocation binds the key it refused), or
 * {@link NO_UPSTREAM_FINGERPRINT} without an upstream.
 */
export function fingerprintOf(config: Config): string {
  const { upstream } = config;
  return upstream === undefined
    ? NO_UPSTREAM_FINGERPRINT
    : accessFingerprint(upstream.baseUrl, upstream.apiKey);
}

/** The clients of a config without `upstream`: every request rejects with {@link NoUpstreamError}. */
export function noUpstreamClients(): Record<ClientRole, UpstreamClient> {
  const client: UpstreamClient = {
    listIssuers: () => Promise.reject(new NoUpstreamError()),
    getPositions: () => Promise.reject(new NoUpstreamError()),
    close: async () => undefined,
  };
  return { polling: client, probe: client, interactive: client };
}

/**
 * One upstream client per role, each behind the shared budget guard: polling never spends the reserve,
 * the probe may ask while access is revoked, interactive commands may use the reserve.
 */
export function buildUpstreamClients(
  upstream: UpstreamConfig,
  config: Config,
  deps: ClientDeps,
): Record<ClientRole, UpstreamClient> {
  const build = (role: ClientRole) => {
    const guard = createBudgetGuard({
      budget: deps.budget,
      access: deps.access,
      fingerprint: fingerprintOf(config),
      interactive: role === 'interactive',
      probe: role === 'probe',
      rateLimitProbeMs: config.budget.probeInterval,
      ...guardNotices(config, deps),
    });
    return createUpstreamClient({
      baseUrl: upstream.baseUrl,
      apiKey: upstream.apiKey,
      allowInsecureHttp: upstream.allowInsecureHttp,
      timeoutMs: upstream.timeout,
      maxBodyBytes: upstream.maxBodyBytes,
      retries: upstream.retries,
      retryDelayMs: upstream.retryDelay,
      beforeRequest: guard.beforeRequest,
      afterResponse: async (info) => {
        countAnswer(deps.metrics, info);
        await guard.afterResponse(info);
      },
    });
  };
  return { polling: build('polling'), probe: build('probe'), interactive: build('interactive') };
}

type GuardOptions = Parameters<typeof createBudgetGuard>[0];
type AnswerInfo = Parameters<NonNullable<Parameters<typeof createUpstreamClient>[0]['afterResponse']>>[0];

/** Every answer counted by operation and status; 429s by window; schema failures apart from transport. */
function countAnswer(metrics: Metrics, info: AnswerInfo): void {
  metrics.upstreamRequests.inc({ operation: info.operation, status: String(info.status) });
  if (isRateLimitedError(info.error))
    metrics.upstreamRateLimited.inc({ window: info.error.window ?? 'unknown' });
  // A 200 whose body breaks the schema is a 200 to the transport, and counted apart.
  if (isSchemaError(info.error)) metrics.upstreamInvalidBodies.inc({ operation: info.operation });
}

/** What the guard tells the operator: access revoked and back, a 429 block (probing), the block lifted. */
function guardNotices(
  config: Config,
  deps: ClientDeps,
): Pick<GuardOptions, 'onRevoked' | 'onRestored' | 'onBlocked' | 'onRateLimitLifted'> {
  return {
    onRevoked: async (status) => {
      const what =
        status.state === 'unauthorized' ? 'rejected the API key (401)' : 'refused API access (403)';
      await deps.notices.raise(
        'access-revoked',
        'critical',
        'Upstream access revoked: polling stopped',
        `The upstream ${what}. Fix the key or plan and reload the config, or run \`shortwatch resume\`. One probe an hour checks whether access came back.`,
      );
    },
    onRestored: async () => {
      await deps.notices.clear('access-revoked', 'Upstream access is back; polling resumes.');
    },
    onBlocked: async (untilMs, window, block) => {
      deps.logger.warn(
        { until: new Date(untilMs).toISOString(), window, probing: block.probing },
        'upstream rate limit (429): holding every request',
      );
      // Probing may last hours: say so once (the notice is deduplicated across processes).
      if (block.probing) {
        await deps.notices.raise(
          RATE_LIMITED_NOTICE,
          'warning',
          'Upstream rate limit without Retry-After: polling paused',
          `The upstream answered 429 for the ${window ?? 'unnamed'} window without saying when to retry, and its window alignment is unknown. One request every ${formatDuration(config.budget.probeInterval)} (from any process) checks whether it answers again; the next at ${new Date(untilMs).toISOString()}. Something else may be spending the same API key.`,
        );
      }
    },
    onRateLimitLifted: async () => {
      await deps.notices.clear(RATE_LIMITED_NOTICE, RATE_LIMIT_LIFTED);
    },
  };
}
