import { DIGEST_RETRIES, KEEP_COMPLETED, KEEP_FAILED, SCHEDULER } from "./queues.js";
import {
  SUBSCRIBER_DIGEST_JOB,
  subscriberDigestSchedulerId
} from "./subscriber-digest.js";
function sweepEvery(plan) {
  return plan.gate ? plan.gateIntervalMs : plan.sweepIntervalMs;
}
async function syncSchedulers(queues, config, plan, subscriberSchedules = []) {
  const jobOpts = { removeOnComplete: { count: 200 }, removeOnFail: KEEP_FAILED };
  if (config.upstream === void 0) {
    await queues.sweep.removeJobScheduler(SCHEDULER.sweep);
  } else {
    await queues.sweep.upsertJobScheduler(
      SCHEDULER.sweep,
      { every: sweepEvery(plan) },
      { name: "sweep", data: {}, opts: jobOpts }
    );
  }
  const wanted = /* @__PURE__ */ new Set();
  for (const channel of config.channels) {
    if (channel.mode !== "digest" || !channel.schedule) continue;
    const id = SCHEDULER.digest(channel.name);
    wanted.add(id);
    await queues.digest.upsertJobScheduler(
      id,
      { pattern: channel.schedule, tz: channel.timezone },
      {
        name: "digest",
        data: { channel: channel.name },
        opts: { ...jobOpts, removeOnComplete: KEEP_COMPLETED, ...DIGEST_RETRIES }
      }
    );
  }
  const digestOpts = { ...jobOpts, removeOnComplete: KEEP_COMPLETED, ...DIGEST_RETRIES };
  for (const schedule of config.subscribers ? subscriberSchedules : []) {
    const id = subscriberDigestSchedulerId(schedule);
    wanted.add(id);
    await queues.digest.upsertJobScheduler(
      id,
      { pattern: schedule.pattern, tz: schedule.timezone },
      { name: SUBSCRIBER_DIGEST_JOB, data: schedule, opts: digestOpts }
    );
  }
  if (config.ops.heartbeat && config.ops.channel) {
    wanted.add(SCHEDULER.heartbeat);
    await queues.digest.upsertJobScheduler(
      SCHEDULER.heartbeat,
      { pattern: config.ops.heartbeat, tz: "UTC" },
      { name: "heartbeat", data: {}, opts: jobOpts }
    );
  }
  for (const scheduler of await queues.digest.getJobSchedulers(0, -1)) {
    const id = scheduler.id ?? scheduler.key;
    if (!wanted.has(id)) await queues.digest.removeJobScheduler(id);
  }
}
const LATE_AFTER_MS = 5 * 6e4;
async function schedulerHealth(queues, config, now) {
  const ids = config.upstream === void 0 ? [] : [[SCHEDULER.sweep, "sweep"]];
  for (const c of config.channels) if (c.mode === "digest") ids.push([SCHEDULER.digest(c.name), "digest"]);
  return Promise.all(
    ids.map(async ([id, queue]) => {
      const scheduler = await (queue === "sweep" ? queues.sweep : queues.digest).getJobScheduler(id);
      const registered = Boolean(scheduler);
      const next = scheduler?.next ?? null;
      return { id, registered, next, late: registered && (next === null || next < now - LATE_AFTER_MS) };
    })
  );
}
export {
  schedulerHealth,
  sweepEvery,
  syncSchedulers
};
