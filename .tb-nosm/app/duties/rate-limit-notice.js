import { RATE_LIMIT_LIFTED, RATE_LIMITED_NOTICE } from "../../upstream-clients.js";
import { BEAT_MS } from "./beat.js";
function rateLimitNoticeUp(active) {
  return active.some((notice) => notice.key === RATE_LIMITED_NOTICE);
}
function rateLimitNoticeClears(usage) {
  return usage.probing === null;
}
function rateLimitNotice(deps) {
  return {
    name: "rate-limit-notice",
    periodMs: BEAT_MS,
    reads: "active notices, then the budget's block",
    writes: "clears `upstream-rate-limited`",
    failure: "could not compare the rate-limit notice with the budget",
    run: async () => {
      if (!rateLimitNoticeUp(await deps.notices.list())) return;
      if (!rateLimitNoticeClears(await deps.budget.usage())) return;
      await deps.notices.clear(RATE_LIMITED_NOTICE, RATE_LIMIT_LIFTED);
    }
  };
}
export {
  rateLimitNotice,
  rateLimitNoticeClears,
  rateLimitNoticeUp
};
