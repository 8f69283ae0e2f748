import { Worker } from "bullmq";
import { isAccessRevokedError, isBudgetExhaustedError } from "../budget/index.js";
import { displayText } from "../channels/format.js";
import { formatDuration } from "../config/duration.js";
import { DAY_MS } from "../time/units.js";
import {
  isIssuerNotFoundError,
  isNoApiAccessError,
  isRateLimitedError,
  isUnauthorizedError
} from "../upstream/index.js";
import { checkAnswer } from "./plausibility.js";
import { sweepEvery } from "./schedulers.js";
import { isWholeDirectory } from "./watchlist.js";
async function fetchChecked(ctx, settings, issuer, previous) {
  let response;
  try {
    response = await ctx.upstream.getPositions(issuer.id, "active");
  } catch (error) {
    if (isBudgetExhaustedError(error)) {
      if (error.reason === "day" || error.reason === "reserve")
        await raiseBudgetExhausted(ctx, error.retryAt);
      await ctx.queues.poll.rateLimit(Math.max(250, error.retryAt - ctx.now().getTime()));
      throw Worker.RateLimitError();
    }
    if (isRateLimitedError(error)) {
      const usage = await ctx.budget.usage();
      const waitMs = usage.blockedUntil === null ? 6e4 : usage.blockedUntil - usage.redisAt;
      await ctx.queues.poll.rateLimit(Math.max(250, waitMs));
      throw Worker.RateLimitError();
    }
    if (isAccessRevokedError(error) || isUnauthorizedError(error) || isNoApiAccessError(error)) {
      return { outcome: "revoked" };
    }
    if (isIssuerNotFoundError(error)) return notFound(ctx, settings, issuer);
    throw error;
  }
  const unknownKeys = checkAnswer(response, { issuerId: issuer.id }, previous);
  if (unknownKeys.length > 0) await reportEnvelopeKeys(ctx, unknownKeys);
  return response;
}
function notFoundBackoffMs(count, sweepIntervalMs) {
  return Math.min(DAY_MS, sweepIntervalMs * 2 ** Math.max(0, count - 1));
}
async function notFound(ctx, { config, plan }, issuer) {
  const now = ctx.now();
  const directory = await ctx.directory.load();
  const listed = directory === null || directory.issuers.some((i) => i.svc_issuer_id === issuer.id);
  const interval = sweepEvery(plan);
  const state = await ctx.pollHealth.notFound(
    issuer.id,
    now,
    (count) => listed ? notFoundBackoffMs(count, interval) : DAY_MS
  );
  const lasting = now.getTime() - Date.parse(state.since);
  const left = !listed && isWholeDirectory(config.watchlist);
  ctx.logger[left ? "info" : "warn"](
    {
      issuerId: issuer.id,
      listed,
      notFoundCount: state.count,
      retryAt: new Date(state.retryAt).toISOString()
    },
    left ? "issuer that left the directory answered 404 (watchlist: all)" : "watched issuer answered 404"
  );
  if (listed && lasting >= config.poll.notFoundNoticeAfter) {
    await ctx.notices.raise(
      `issuer-missing-${issuer.id}`,
      "warning",
      "Watched issuer not found upstream",
      `${displayText(issuer.name)} (${displayText(issuer.id)}) has answered 404 for ${formatDuration(lasting)} although the issuer list still names it; it is asked again with backoff up to daily and no position is marked closed. \`shortwatch resume ${issuer.id}\` asks again at the next sweep.`
    );
  }
  return { outcome: "missing" };
}
async function reportEnvelopeKeys(ctx, keys) {
  const first = await ctx.pollHealth.sawEnvelopeKeys(keys, ctx.now());
  if (!first) return;
  ctx.logger.warn({ keys }, "positions answers carry envelope keys the upstream spec does not name");
  await ctx.notices.raise(
    envelopeNoticeKey(keys),
    "warning",
    "The upstream answers with fields shortwatch does not know",
    `Positions answers carry ${keys.map((k) => `\`${k}\``).join(", ")}, which the upstream spec does not name: the data may be incomplete. shortwatch keeps polling and treats answers that say they are one page of several as failures.`
  );
}
function envelopeNoticeKey(keys) {
  return `upstream-envelope-${[...keys].sort().join("-")}`;
}
async function raiseBudgetExhausted(ctx, retryAt) {
  await ctx.notices.raise(
    "budget-exhausted",
    "warning",
    "Today's polling budget is spent",
    `Polling waits for the next budget window at ${new Date(retryAt).toISOString()}; changes published before then are detected after it. \`shortwatch plan\` shows what fits.`
  );
}
export {
  envelopeNoticeKey,
  fetchChecked,
  notFoundBackoffMs,
  raiseBudgetExhausted
};
