import { displayText } from "../channels/format.js";
import { formatDuration } from "../config/duration.js";
import { CAUSE_TEXT } from "./poll-failure.js";
import { sweepEvery } from "./schedulers.js";
const NOTICES_PER_ISSUER_UP_TO = 5;
const MANY_KEY = "polling-overdue";
const ONE_PREFIX = "poll-overdue-";
function overdueAfterMs(config, plan) {
  return config.poll.overdueAfter ?? 2 * sweepEvery(plan);
}
function overdueIssuers(watched, health, nowMs, afterMs) {
  return watched.flatMap((issuer) => {
    const h = health.get(issuer.id);
    if (!h?.dueSince || h.notFound || nowMs - Date.parse(h.dueSince) <= afterMs) return [];
    return [
      {
        id: issuer.id,
        name: issuer.name,
        dueSince: h.dueSince,
        failures: h.failing?.count ?? 0,
        ...h.failing ? { cause: h.failing.cause } : {},
        ...h.lagging ? {
          lagging: {
            answered: h.lagging.answered,
            expected: h.lagging.expected,
            count: h.lagging.count
          }
        } : {},
        ...nextTryOf(h)
      }
    ];
  }).sort((a, b) => a.dueSince.localeCompare(b.dueSince));
}
function nextTryOf(health) {
  const at = health.failing?.retryAt ?? health.lagging?.retryAt;
  return at === void 0 ? {} : { nextTry: at };
}
function describeOverdue(issuer, nowMs) {
  const waited = formatDuration(nowMs - Date.parse(issuer.dueSince));
  const next = issuer.nextTry === void 0 ? "" : `; next try ${new Date(issuer.nextTry).toISOString()}`;
  return `${displayText(issuer.name)} (${displayText(issuer.id)}) due for ${waited}; ${whyOverdue(issuer)}${next}`;
}
function whyOverdue(issuer) {
  if (issuer.cause)
    return `${issuer.failures} failed poll${issuer.failures === 1 ? "" : "s"}: ${CAUSE_TEXT[issuer.cause]}`;
  if (issuer.lagging) {
    const { answered, expected, count } = issuer.lagging;
    return `${count} answer${count === 1 ? "" : "s"} older than the issuer list (data of ${answered}, the list says ${expected}: a replica behind?)`;
  }
  return "no poll has run (budget, a 429 block, or no worker running)";
}
async function syncOverdueNotices(ctx, overdue, active) {
  const nowMs = ctx.now().getTime();
  const many = overdue.length > NOTICES_PER_ISSUER_UP_TO;
  const wanted = new Set(many ? [] : overdue.map((o) => ONE_PREFIX + o.id));
  for (const notice of active) {
    if (notice.key.startsWith(ONE_PREFIX) && !wanted.has(notice.key)) {
      const id = notice.key.slice(ONE_PREFIX.length);
      await ctx.notices.clear(
        notice.key,
        many ? `${id} is now part of the wider polling problem.` : `${id} is polled again.`
      );
    }
  }
  if (many) {
    await ctx.notices.raise(
      MANY_KEY,
      "critical",
      `Polling is behind for ${overdue.length} issuers`,
      `${overdue.map((o) => describeOverdue(o, nowMs)).join("\n")}
\`shortwatch status\` shows the current state.`
    );
    return;
  }
  await ctx.notices.clear(MANY_KEY, "Polling has caught up.");
  for (const issuer of overdue) {
    await ctx.notices.raise(
      ONE_PREFIX + issuer.id,
      "warning",
      "A watched issuer is not being polled",
      `${describeOverdue(issuer, nowMs)}. Its changes are told once a poll succeeds.`
    );
  }
}
export {
  describeOverdue,
  overdueAfterMs,
  overdueIssuers,
  syncOverdueNotices
};
