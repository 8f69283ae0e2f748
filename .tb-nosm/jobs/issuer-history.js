import { holderKey } from "../positions/index.js";
import { historyEvidence } from "../schedule/index.js";
async function historyForPoll(ctx, settings, issuerId, events, previous) {
  const finals = settings.config.poll.enrichClosed && events.some((e) => e.kind === "closed");
  if (!finals && previous !== null) return null;
  if (!await sweepStillFits(ctx, settings)) return null;
  try {
    const history = await ctx.upstream.getPositions(issuerId, "all");
    if (history.issuer.svc_issuer_id === issuerId && history.status === "all") return history;
    ctx.logger.debug({ issuerId, answered: history.issuer.svc_issuer_id }, "status=all answer ignored");
  } catch (error) {
    ctx.logger.debug({ issuerId, err: error }, "status=all history not fetched");
  }
  return null;
}
function historyFits(input) {
  const leftOfDay = Math.min(1, Math.max(0, input.untilDayEndMs / input.dayMs));
  const checksLeft = Math.ceil(input.gateChecksPerDay * leftOfDay);
  return input.dayLeft - input.reserve > input.watched + checksLeft;
}
async function sweepStillFits(ctx, { plan, config, watched }) {
  const { day, reserve } = await ctx.budget.usage();
  return historyFits({
    dayLeft: day.left,
    reserve,
    watched: watched.length,
    gateChecksPerDay: plan.gate ? plan.gateChecksPerDay : 0,
    untilDayEndMs: day.resetAt - ctx.now().getTime(),
    dayMs: config.budget.dayWindow
  });
}
function withFinals(events, history) {
  if (history === null) return events;
  return events.map((event) => {
    if (event.kind !== "closed" || !event.previous) return event;
    const since = event.previous.date;
    const last = history.data.filter((row) => holderKey(row.position_holder) === event.holderKey && row.date >= since).sort((a, b) => b.date.localeCompare(a.date) || a.value - b.value)[0];
    return last ? { ...event, final: { value: last.value, date: last.date } } : event;
  });
}
function historySummary(next, history, at) {
  if (next.history) return next.history;
  if (history === null) return void 0;
  const since = next.watch ? Date.parse(next.watch.since) : Number.NaN;
  const asOf = Number.isNaN(since) ? at.getTime() : since;
  const evidence = historyEvidence(
    history.data.map((row) => row.date),
    asOf
  );
  return { ...evidence, at: at.toISOString() };
}
export {
  historyFits,
  historyForPoll,
  historySummary,
  withFinals
};
