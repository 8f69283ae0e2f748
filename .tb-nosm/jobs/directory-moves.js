import { isWholeDirectory } from "./watchlist.js";
const IDS_SHOWN = 20;
function directoryMoves(before, issuers) {
  const was = new Set(before);
  const now = new Set(issuers.map((issuer) => issuer.svc_issuer_id));
  return {
    joined: issuers.filter((issuer) => !was.has(issuer.svc_issuer_id)),
    left: before.filter((id) => !now.has(id))
  };
}
function logDirectoryMoves(ctx, before, issuers) {
  if (before === null || !isWholeDirectory(ctx.settings().config.watchlist)) return;
  const { joined, left } = directoryMoves(before, issuers);
  if (joined.length > 0) {
    ctx.logger.info(
      { joined: joined.length, ids: joined.slice(0, IDS_SHOWN).map((i) => i.svc_issuer_id) },
      "issuers joined the directory: polled from now on (watchlist: all), each first poll a silent baseline"
    );
  }
  if (left.length > 0) {
    ctx.logger.info(
      { left: left.length, ids: left.slice(0, IDS_SHOWN) },
      "issuers left the directory: no longer polled (watchlist: all); their snapshots are kept"
    );
  }
}
export {
  directoryMoves,
  logDirectoryMoves
};
