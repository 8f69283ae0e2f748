import { type AccessState, accessFingerprint, createBudgetGuard, type RateBudget } from './budget/index.js';
import type { Config } from './config/schema.js';
import type { Logger } from './ops/logger.js';
import type { Metrics } from './ops/metrics.js';
import type { Notices } from './ops/notices.js';
import { createUpstreamClient, isRateLimitedError, type UpstreamClient } from './upstream/index.js';

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

/** Fingerprint of the configured upstream URL and key: a revocation binds the key it refused. */
export function fingerprintOf(config: Config): string {
  return accessFingerprint(config.upstream.baseUrl, config.upstream.apiKey);
}

/**
 * One upstream client per role, each behind the shared budget guard: polling never spends the reserve,
 * the probe may ask while access is revoked, interactive commands may use the reserve.
 */
export function buildUpstreamClients(config: Config, deps: ClientDeps): Record<ClientRole, UpstreamClient> {
  const build = (role: ClientRole) => {
    const guard = createBudgetGuard({
      budget: deps.budget,
      access: deps.access,
      fingerprint: fingerprintOf(config),
      interactive: role === 'interactive',
      probe: role === 'probe',
      now: () => deps.now().getTime(),
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
      onBlocked: async (untilMs, window) => {
        deps.logger.warn(
          { until: new Date(untilMs).toISOString(), window },
          'upstream rate limit (429): holding every request',
        );
      },
    });
    return createUpstreamClient({
      baseUrl: config.upstream.baseUrl,
      apiKey: config.upstream.apiKey,
      timeoutMs: config.upstream.timeout,
      maxBodyBytes: config.upstream.maxBodyBytes,
      retries: config.upstream.retries,
      retryDelayMs: config.upstream.retryDelay,
      beforeRequest: guard.beforeRequest,
      afterResponse: async (info) => {
        deps.metrics.upstreamRequests.inc({ operation: info.operation, status: String(info.status) });
        if (isRateLimitedError(info.error))
          deps.metrics.upstreamRateLimited.inc({ window: info.error.window ?? 'unknown' });
        await guard.afterResponse(info);
      },
    });
  };
  return { polling: build('polling'), probe: build('probe'), interactive: build('interactive') };
}
