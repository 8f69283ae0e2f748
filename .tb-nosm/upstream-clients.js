import { accessFingerprint, createBudgetGuard } from "./budget/index.js";
import { formatDuration } from "./config/duration.js";
import {
  createUpstreamClient,
  isRateLimitedError,
  isSchemaError,
  NoUpstreamError
} from "./upstream/index.js";
const RATE_LIMITED_NOTICE = "upstream-rate-limited";
const RATE_LIMIT_LIFTED = "The upstream answers again; polling resumes.";
const NO_UPSTREAM_FINGERPRINT = "no-upstream";
function fingerprintOf(config) {
  const { upstream } = config;
  return upstream === void 0 ? NO_UPSTREAM_FINGERPRINT : accessFingerprint(upstream.baseUrl, upstream.apiKey);
}
function noUpstreamClients() {
  const client = {
    listIssuers: () => Promise.reject(new NoUpstreamError()),
    getPositions: () => Promise.reject(new NoUpstreamError()),
    close: async () => void 0
  };
  return { polling: client, probe: client, interactive: client };
}
function buildUpstreamClients(upstream, config, deps) {
  const build = (role) => {
    const guard = createBudgetGuard({
      budget: deps.budget,
      access: deps.access,
      fingerprint: fingerprintOf(config),
      interactive: role === "interactive",
      probe: role === "probe",
      rateLimitProbeMs: config.budget.probeInterval,
      ...guardNotices(config, deps)
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
      }
    });
  };
  return { polling: build("polling"), probe: build("probe"), interactive: build("interactive") };
}
function countAnswer(metrics, info) {
  metrics.upstreamRequests.inc({ operation: info.operation, status: String(info.status) });
  if (isRateLimitedError(info.error))
    metrics.upstreamRateLimited.inc({ window: info.error.window ?? "unknown" });
  if (isSchemaError(info.error)) metrics.upstreamInvalidBodies.inc({ operation: info.operation });
}
function guardNotices(config, deps) {
  return {
    onRevoked: async (status) => {
      const what = status.state === "unauthorized" ? "rejected the API key (401)" : "refused API access (403)";
      await deps.notices.raise(
        "access-revoked",
        "critical",
        "Upstream access revoked: polling stopped",
        `The upstream ${what}. Fix the key or plan and reload the config, or run \`shortwatch resume\`. One probe an hour checks whether access came back.`
      );
    },
    onRestored: async () => {
      await deps.notices.clear("access-revoked", "Upstream access is back; polling resumes.");
    },
    onBlocked: async (untilMs, window, block) => {
      deps.logger.warn(
        { until: new Date(untilMs).toISOString(), window, probing: block.probing },
        "upstream rate limit (429): holding every request"
      );
      if (block.probing) {
        await deps.notices.raise(
          RATE_LIMITED_NOTICE,
          "warning",
          "Upstream rate limit without Retry-After: polling paused",
          `The upstream answered 429 for the ${window ?? "unnamed"} window without saying when to retry, and its window alignment is unknown. One request every ${formatDuration(config.budget.probeInterval)} (from any process) checks whether it answers again; the next at ${new Date(untilMs).toISOString()}. Something else may be spending the same API key.`
        );
      }
    },
    onRateLimitLifted: async () => {
      await deps.notices.clear(RATE_LIMITED_NOTICE, RATE_LIMIT_LIFTED);
    }
  };
}
export {
  NO_UPSTREAM_FINGERPRINT,
  RATE_LIMITED_NOTICE,
  RATE_LIMIT_LIFTED,
  buildUpstreamClients,
  fingerprintOf,
  noUpstreamClients
};
