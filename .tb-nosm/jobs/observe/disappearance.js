import { createHash } from "node:crypto";
function disappearance(before, after) {
  const removedIssuers = [...before.keys()].filter((key) => !after.has(key));
  const removedHolders = [];
  let holders = 0;
  for (const [issuer, named] of before) {
    const now = new Set(after.get(issuer) ?? []);
    holders += named.length;
    for (const holder of named) if (!now.has(holder)) removedHolders.push(`${issuer}|${holder}`);
  }
  const fingerprint = createHash("sha256").update(JSON.stringify([removedIssuers.sort(), removedHolders.sort()])).digest("hex").slice(0, 16);
  return {
    issuers: { removed: removedIssuers.length, before: before.size },
    holders: { removed: removedHolders.length, before: holders },
    fingerprint
  };
}
function needsConfirmation(d, share) {
  const over = ({ removed, before }) => removed > 0 && removed > share * before;
  return over(d.issuers) || over(d.holders);
}
function describeDisappearance(d) {
  return `${d.issuers.removed} of ${d.issuers.before} issuers and ${d.holders.removed} of ${d.holders.before} named holders gone`;
}
function answerNeedsConfirmation(a, share) {
  if (a.closed === 0) return false;
  if (a.left === 0) return true;
  const { refreshClosed = 0, positions = 0 } = a;
  return positions > 0 && refreshClosed > share * positions;
}
function countsRefreshCloses(a) {
  return a.closed > 0 && a.left > 0;
}
export {
  answerNeedsConfirmation,
  countsRefreshCloses,
  describeDisappearance,
  disappearance,
  needsConfirmation
};
