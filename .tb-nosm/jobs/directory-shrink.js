function suspectShrink(previous, fresh) {
  const lost = previous - fresh;
  return lost >= Math.max(10, Math.ceil(previous / 5));
}
const SHRINK_BELIEVED_AFTER = 3;
const NOTICE = "directory-shrank";
async function acceptIssuerList(ctx, fresh, previousCount, sweepKey) {
  if (previousCount === null || !suspectShrink(previousCount, fresh.data.length)) {
    if (await ctx.redis.hdel(sweepKey, "shrinkSeen", "shrinkCount") > 0) {
      await ctx.notices.clear(NOTICE, "The issuer list is whole again.");
    }
    return true;
  }
  const [seen, count] = await ctx.redis.hmget(sweepKey, "shrinkSeen", "shrinkCount");
  const streak = Number(count) === fresh.data.length ? Number(seen ?? 0) + 1 : 1;
  if (streak >= SHRINK_BELIEVED_AFTER) {
    await ctx.redis.hdel(sweepKey, "shrinkSeen", "shrinkCount");
    await ctx.notices.clear(
      NOTICE,
      `The issuer list stayed at ${fresh.data.length} issuers for ${streak} checks in a row: taken as the register's.`
    );
    return true;
  }
  await ctx.redis.hset(sweepKey, "shrinkSeen", streak, "shrinkCount", fresh.data.length);
  await ctx.notices.raise(
    NOTICE,
    "warning",
    "The issuer list came back much shorter: taken as a partial answer",
    `GET /issuers listed ${fresh.data.length} issuers where the last list had ${previousCount}. The last full list stays in use (its issuers go on being polled) until the same shorter list is seen on ${SHRINK_BELIEVED_AFTER} checks in a row.`
  );
  return false;
}
export {
  SHRINK_BELIEVED_AFTER,
  acceptIssuerList,
  suspectShrink
};
