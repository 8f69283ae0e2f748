import { displayText } from "../channels/format.js";
import { stateKeys } from "../state/keys.js";
import { describeRollback } from "../state/state-mark.js";
async function checkStateKept(ctx, watched, snapshots) {
  const epoch = await ctx.epoch.check();
  const without = watched.filter((w) => !snapshots.has(w.id));
  if (epoch.lost) {
    await reportStateLost(ctx, epoch.previous, without.length);
    return;
  }
  const rollback = await ctx.stateMark.check();
  if (rollback) await reportRolledBack(ctx, rollback);
  const flags = without.length === 0 ? [] : await ctx.redis.smismember(stateKeys(ctx.prefix).baselined, ...without.map((w) => w.id));
  const marked = without.filter((_, i) => flags[i] === 1);
  const present = marked.length === 0 ? /* @__PURE__ */ new Map() : await ctx.snapshots.getMany(marked.map((w) => w.id));
  const vanished = marked.filter((w) => !present.has(w.id));
  if (vanished.length > 0) {
    await ctx.notices.raise(
      "snapshots-vanished",
      "critical",
      "Snapshots vanished from Redis",
      `The snapshots of ${vanished.length} watched issuers are gone although shortwatch wrote them (eviction under \`maxmemory\`, or a manual delete): ${vanished.map((w) => `${displayText(w.name)} (${displayText(w.id)})`).join(", ")}. They are re-baselined at their next poll; changes published since they vanished are not told.`
    );
  } else if (without.length === 0) {
    await ctx.notices.clear("snapshots-vanished", "Every watched issuer has a snapshot again.");
    await ctx.notices.clear("state-lost", "Every watched issuer has a snapshot again.");
  }
}
async function reportStateLost(ctx, previousEpoch, rebaselined) {
  await ctx.notices.raise(
    "state-lost",
    "critical",
    "Redis lost shortwatch's state",
    `The state this deployment ran on (epoch ${previousEpoch}) is gone: snapshots, queued deliveries, schedules and notices were lost (a FLUSHALL, a Redis restart without persistence, or a failover to an empty replica). ${rebaselined} watched issuers are re-baselined at their next poll; changes published since the loss are not told. Check Redis persistence and \`maxmemory-policy noeviction\`.`
  );
}
const ROLLED_BACK_NOTICE = "state-rolled-back";
async function reportRolledBack(ctx, rollback) {
  const how = describeRollback(rollback);
  ctx.logger.error({ rollback }, `Redis state went back: ${how}`);
  await ctx.notices.raise(
    ROLLED_BACK_NOTICE,
    "critical",
    "Redis lost writes: its state went back",
    `Redis holds an older state than shortwatch saw: ${how} are gone (a failover promoted a replica that lacked the master's last writes). Issuers whose snapshots went back are polled again and their changes told; a message whose "sent" record was lost may be sent again under the same delivery id, which receivers drop. Due marks of poll health start again (they came back with the lost writes). With redis.durability on (\`WAIT\`), no message is told before a replica holds what it depends on: docs/operations.md, "What a failover can lose".`
  );
  await ctx.pollHealth.restartDueClocks(ctx.now());
}
async function settleRolledBack(ctx, toldForMs) {
  const active = (await ctx.notices.list()).find((n) => n.key === ROLLED_BACK_NOTICE);
  if (!active || ctx.now().getTime() - Date.parse(active.since) < toldForMs) return;
  await ctx.notices.clear(
    ROLLED_BACK_NOTICE,
    "shortwatch goes on from the state Redis holds now; what the lost writes held is polled and told again."
  );
}
export {
  ROLLED_BACK_NOTICE,
  checkStateKept,
  reportRolledBack,
  reportStateLost,
  settleRolledBack
};
