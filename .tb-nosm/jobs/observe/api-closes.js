import { stateKeys } from "../../state/keys.js";
import { answerNeedsConfirmation, countsRefreshCloses } from "./disappearance.js";
async function confirmedCloses(ctx, settings, at, first, readAgain) {
  if (at.previous === null || !answerNeedsConfirmation(await closesOf(ctx, at, first.diff), share(settings)))
    return first;
  const second = await readAgain();
  if ("outcome" in second) return second;
  const [before, after] = [closedCount(first.diff.events), closedCount(second.diff.events)];
  ctx.metrics.closeConfirmations.inc({ result: after >= before ? "confirmed" : "refuted" });
  if (after < before) {
    await ctx.redis.decrby(stateKeys(ctx.prefix).closesInRefresh(at.version), before - after);
    ctx.logger.warn(
      { issuerId: at.issuerId, closed: before, confirmed: after },
      "closes refuted by a second answer"
    );
  }
  return second;
}
const share = (settings) => settings.config.poll.confirmClosedShare;
const closedCount = (events) => events.filter((e) => e.kind === "closed").length;
async function closesOf(ctx, at, diff) {
  const answer = { closed: closedCount(diff.events), left: Object.keys(diff.next.positions).length };
  if (!countsRefreshCloses(answer)) return answer;
  const key = stateKeys(ctx.prefix).closesInRefresh(at.version);
  const replies = await ctx.redis.multi().incrby(key, answer.closed).expire(key, 24 * 3600).hget(stateKeys(ctx.prefix).sweep, "positions").exec() ?? [];
  return { ...answer, refreshClosed: Number(replies[0]?.[1]), positions: Number(replies[2]?.[1]) };
}
export {
  confirmedCloses
};
