import { cronPatternProblem } from "../preflight/cron-pattern.js";
import { subscriberDigestChannel, wantsDigest } from "../routing/subscriber.js";
import { digestBatchId, shortHash } from "../state/delivery-ids.js";
const SUBSCRIBER_DIGEST_JOB = "subscriber-digest";
function subscriberDigestSchedulerId(schedule) {
  return `subscriber-digest-${shortHash(`${schedule.pattern}|${schedule.timezone}`, 12)}`;
}
async function subscriberDigestSchedules(ctx) {
  const schedules = /* @__PURE__ */ new Map();
  for (const subscriber of await ctx.subscribers.list()) {
    if (!wantsDigest(subscriber)) continue;
    const schedule = { pattern: subscriber.prefs.digestSchedule, timezone: subscriber.prefs.timezone };
    const problem = cronPatternProblem(schedule.pattern, schedule.timezone);
    if (problem === void 0) schedules.set(subscriberDigestSchedulerId(schedule), schedule);
    else ctx.logger.warn({ subscriber: subscriber.id, ...schedule }, `digest schedule not used: ${problem}`);
  }
  return [...schedules.values()];
}
async function runSubscriberDigests(ctx, data, startedAt) {
  let sealed = 0;
  const to = ctx.now().toISOString();
  for (const subscriber of await ctx.subscribers.list()) {
    const { prefs } = subscriber;
    if (!wantsDigest(subscriber) || prefs.digestSchedule !== data.pattern || prefs.timezone !== data.timezone)
      continue;
    const channel = subscriberDigestChannel(subscriber.id);
    const count = await ctx.outbox.sealDigest(channel, {
      batchId: digestBatchId(channel, data.scheduledAt),
      scheduledAt: data.scheduledAt,
      to,
      timezone: prefs.timezone,
      sendEmpty: false,
      firstFrom: startedAt.toISOString()
    });
    sealed += Math.max(0, count);
  }
  return sealed;
}
export {
  SUBSCRIBER_DIGEST_JOB,
  runSubscriberDigests,
  subscriberDigestSchedulerId,
  subscriberDigestSchedules
};
