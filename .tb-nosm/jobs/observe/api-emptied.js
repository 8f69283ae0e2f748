import { stateKeys } from "../../state/keys.js";
import { regimeDrop } from "../registers/register-diff.js";
import { sweepEvery } from "../schedulers.js";
import { isMassEnding, pastNamedHolders } from "./boundary.js";
import { regimeEvent } from "./regime-event.js";
async function emptiedVerdict(ctx, settings, input) {
  const { regimeBoundary } = settings.config.poll;
  const key = stateKeys(ctx.prefix).emptiedInRefresh(input.version);
  const closes = input.diff.events.filter((e) => e.kind === "closed").length;
  const nowMs = ctx.now().getTime();
  if (closes > 0 && pastNamedHolders(regimeBoundary, input.market, ctx.now().toISOString().slice(0, 10)))
    return { kind: "regime", by: "calendar", emptied: 1, named: 1 };
  const before = Object.keys(input.previous?.positions ?? {}).length;
  if (before === 0 || Object.keys(input.diff.next.positions).length > 0) {
    await ctx.redis.hdel(key, input.issuerId);
    return { kind: "closes" };
  }
  const replies = await ctx.redis.multi().hsetnx(key, input.issuerId, String(nowMs)).expire(key, 86400).hget(key, input.issuerId).exec();
  const heldAt = Number(replies?.[2]?.[1] ?? nowMs);
  const untilMs = heldAt + (settings.config.poll.emptiedConfirmAfter ?? sweepEvery(settings.plan));
  if (nowMs < untilMs) return { kind: "wait", untilMs };
  const counts = await emptiedCounts(ctx, settings, key);
  return isMassEnding({ ...counts, share: regimeBoundary.share }) ? { kind: "regime", by: "share", ...counts } : { kind: "closes" };
}
async function emptiedCounts(ctx, settings, key) {
  const emptied = new Set(await ctx.redis.hkeys(key));
  const snapshots = await ctx.snapshots.getMany(settings.watched.map((w) => w.id));
  const named = new Set(emptied);
  for (const [id, snapshot] of snapshots) if (Object.keys(snapshot.positions).length > 0) named.add(id);
  return { emptied: emptied.size, named: named.size };
}
async function regimeOfVerdict(ctx, issuer, change, verdict) {
  const { key, name } = issuer;
  const drop = regimeDrop({ key, name, ...change });
  const now = ctx.now().toISOString();
  const event = regimeEvent(drop, { detectedAt: now, date: now.slice(0, 10) });
  const version = issuer.version ?? "unversioned";
  const why = verdict.by === "calendar" ? `${name} (${key}) is in a market whose named holders have ended (the calendar, or poll.regimeBoundary.namedHoldersUntil)` : `${verdict.emptied} of ${verdict.named} watched issuers that named holders name none in dataset version ${version}, more than poll.regimeBoundary.share, and a confirming read agreed`;
  await ctx.notices.tell(
    `upstream-regime-${verdict.by === "calendar" ? key : "share"}-${version}`,
    "info",
    "Named holders no longer published by the upstream",
    `${why}: told once per issuer as "named holders no longer published", not as closes.`
  );
  return { drop, event };
}
export {
  emptiedVerdict,
  regimeOfVerdict
};
