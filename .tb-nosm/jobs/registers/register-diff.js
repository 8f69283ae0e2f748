import { round4 } from "../../positions/round.js";
import { issuerNameKey } from "../../routing/match-keys.js";
import { isMassEnding, marketOf, pastNamedHolders } from "../observe/boundary.js";
import { diffObserved } from "../observe/observation.js";
function diffRegister(input) {
  const named = input.snapshot.content === "positions" && input.snapshot.namesHolders;
  const watched = (issuer) => isWatched(input.source.watchlist, issuer);
  const read = new Map(input.snapshot.issuers.filter(watched).map((issuer) => [issuer.key, issuer]));
  const stored = [...input.previous.entries()].filter(([key, s]) => watched({ key, name: s.issuerName }));
  const keys = named ? [.../* @__PURE__ */ new Set([...read.keys(), ...stored.map(([key]) => key), ...input.alsoCommit])].sort() : [...input.alsoCommit].sort();
  const diffs = keys.map((key) => issuerDiff(input, key, read.get(key), input.previous.get(key) ?? null));
  const commit = (d) => input.alsoCommit.has(d.key) || named && changed(d);
  if (!named) return { issuers: diffs.filter(commit), drops: [] };
  const emptied = diffs.filter(droppedAll);
  const counts = {
    emptied: (/* @__PURE__ */ new Set([...emptied.map((d) => d.key), ...droppedSinceKept(input, read)])).size,
    named: namedBefore(input, stored)
  };
  const mass = isMassEnding({ ...counts, share: input.source.regimeBoundary.share });
  if (mass && input.confirmed !== true) return { issuers: [], drops: [], unconfirmed: counts };
  const past = diffs.filter((d) => pastFor(input, d.key) && d.diff.events.some(isClose));
  const dropped = [.../* @__PURE__ */ new Set([...past, ...mass ? emptied : []])];
  if (dropped.length === 0) return { issuers: diffs.filter(commit), drops: [] };
  const drops = new Set(dropped);
  return {
    issuers: diffs.filter((d) => commit(d) && !drops.has(d)),
    drops: dropped.map(regimeDrop),
    regime: { by: mass ? "share" : "calendar", ...counts }
  };
}
function regimeDrop(d) {
  const closes = d.diff.events.filter(isClose);
  return {
    key: d.key,
    name: d.name,
    lastNamedSum: round4(closes.reduce((sum, close) => sum + (close.previous?.value ?? 0), 0)),
    closes,
    silent: { ...d, diff: { ...d.diff, events: d.diff.events.filter((event) => !isClose(event)) } }
  };
}
function isClose(event) {
  return event.kind === "closed";
}
function isWatched(watchlist, issuer) {
  if (watchlist === "all") return true;
  const name = issuerNameKey(issuer.name);
  return watchlist.some(
    (entry) => entry === issuer.key || entry === issuer.isin || issuer.otherIsins?.includes(entry) === true || issuerNameKey(entry) === name
  );
}
function issuerDiff(input, key, issuer, previous) {
  const name = issuer?.name ?? previous?.issuerName ?? key;
  const observation = {
    source: input.source.name,
    key,
    name,
    rows: (issuer?.positions ?? []).map(
      (p) => ({ position_holder: p.holder, value: p.percent, date: p.date })
    ),
    version: input.snapshot.publishedOn ?? null,
    at: input.now
  };
  const diff = diffObserved(observation, previous, {
    thresholds: input.thresholds,
    onFirstSeen: input.listedBefore?.has(key) === false ? "alert" : input.onFirstSeen
  });
  const events = diff.events.map((event) => {
    const lei = holderLeiOf(issuer, event.holderKey);
    return {
      ...event,
      ...lei === void 0 ? {} : { holderLei: lei },
      current: withFiling(
        event.current,
        issuer?.positions.find((p) => p.holderKey === event.holderKey)
      )
    };
  });
  return { key, name, previous, diff: { ...diff, events } };
}
function holderLeiOf(issuer, key) {
  const rows = [...issuer?.positions ?? [], ...[...issuer?.history ?? []].reverse()];
  return rows.find((p) => p.holderKey === key && p.holderLei !== void 0)?.holderLei;
}
function withFiling(current, read) {
  if (current === null || read?.reportedOn === void 0 || read.date !== current.date) return current;
  return { ...current, reportedOn: read.reportedOn };
}
function changed(d) {
  if (d.previous === null || d.diff.events.length > 0) return true;
  return JSON.stringify(d.previous.positions) !== JSON.stringify(d.diff.next.positions);
}
function droppedAll(d) {
  const before = Object.keys(d.previous?.positions ?? {}).length;
  return before > 0 && Object.keys(d.diff.next.positions).length === 0;
}
function droppedSinceKept(input, read) {
  const kept = input.kept;
  if (kept === void 0 || kept.content !== "positions" || !kept.namesHolders) return [];
  return kept.issuers.filter((issuer) => issuer.positions.length > 0 && isWatched(input.source.watchlist, issuer)).filter((issuer) => (read.get(issuer.key)?.positions.length ?? 0) === 0).map((issuer) => issuer.key);
}
function namedBefore(input, stored) {
  const keys = new Set(stored.filter(([, s]) => Object.keys(s.positions).length > 0).map(([key]) => key));
  for (const issuer of input.kept?.namesHolders ? input.kept.issuers : [])
    if (issuer.positions.length > 0 && isWatched(input.source.watchlist, issuer)) keys.add(issuer.key);
  return keys.size;
}
function pastFor(input, key) {
  const date = input.now.toISOString().slice(0, 10);
  return pastNamedHolders(input.source.regimeBoundary, marketOf({ isin: key }), date);
}
export {
  diffRegister,
  isWatched,
  regimeDrop
};
