import { digestBatchId } from "../state/delivery-ids.js";
async function runDigest(ctx, data, startedAt) {
  const channel = ctx.settings().config.channels.find((c) => c.name === data.channel);
  if (channel?.mode !== "digest") return 0;
  const now = ctx.now();
  const sealed = await ctx.outbox.sealDigest(channel.name, {
    batchId: digestBatchId(channel.name, data.scheduledAt),
    scheduledAt: data.scheduledAt,
    to: now.toISOString(),
    timezone: channel.timezone,
    sendEmpty: channel.sendEmpty,
    firstFrom: startedAt.toISOString()
  });
  if (sealed === -2)
    ctx.logger.info({ channel: channel.name, scheduledAt: data.scheduledAt }, "digest period sealed already");
  return Math.max(0, sealed);
}
export {
  runDigest
};
