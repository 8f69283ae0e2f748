import { stateKeys } from "../state/keys.js";
import { Lease } from "../state/lease.js";
import { composeNext, inflightOf } from "./compose.js";
import { DRAIN_LEASE_MS } from "./deliverer.js";
const REASON = "the channel was removed from the config";
const READ_LIMIT = 500;
async function retireChannel(ctx, channel) {
  const box = stateKeys(ctx.prefix).outbox(channel);
  const lease = new Lease(ctx.redis, box.lease, `${ctx.processId}|${channel}|retire`, DRAIN_LEASE_MS);
  if (!await lease.take()) return "busy";
  const { outbox } = ctx;
  let parked = 0;
  try {
    const now = ctx.now().getTime();
    const inflight = await outbox.inflight(channel);
    if (inflight) {
      if (!await outbox.finish(channel, lease.owner, { ...inflight, lastError: REASON }, "parked", now))
        return "busy";
      parked++;
    }
    for (; ; ) {
      const { items } = await outbox.ready(channel, Number.MAX_SAFE_INTEGER, READ_LIMIT);
      const first = items[0];
      if (!first) break;
      const digestEvents = first.kind === "digest" ? await outbox.digestEvents(channel, first.batchId) : [];
      const next = composeNext(channel, items, () => 1, 1, digestEvents);
      if (!next) break;
      const record = inflightOf(next, now, { lastError: REASON });
      if (await outbox.claim(channel, lease.owner, record, next.itemIds) !== "claimed") return "busy";
      if (!await outbox.finish(channel, lease.owner, record, "parked", now)) return "busy";
      parked++;
    }
    return { parked, staged: await outbox.stagedCount(channel) };
  } finally {
    await lease.release();
  }
}
export {
  retireChannel
};
