function seenBy(event, atMs) {
  return Date.parse(event.detectedAt) <= atMs;
}
function positionsAsOf(input, atMs) {
  const { snapshot } = input;
  const since = snapshot === null ? Number.NaN : Date.parse(snapshot.watch?.since ?? snapshot.polledAt);
  if (snapshot === null || !(since <= atMs)) return { seen: false, positions: [], complete: true };
  const named = input.events.filter((e) => e.aggregate === void 0).sort((a, b) => Date.parse(b.detectedAt) - Date.parse(a.detectedAt));
  const held = new Map(
    Object.entries(snapshot.positions).map(([key, p]) => [key, { holderKey: key, ...p }])
  );
  for (const event of named) {
    if (seenBy(event, atMs)) break;
    if (event.previous === null) held.delete(event.holderKey);
    else held.set(event.holderKey, { holderKey: event.holderKey, holder: event.holder, ...event.previous });
  }
  const oldest = named.at(-1);
  const complete = !input.trimmed || oldest !== void 0 && seenBy(oldest, atMs);
  const positions = [...held.values()].map((p) => {
    const brought = named.find((e) => e.holderKey === p.holderKey && seenBy(e, atMs) && e.current !== null);
    const firstSeen = brought?.detectedAt ?? (input.trimmed ? void 0 : snapshot.watch?.since);
    return firstSeen === void 0 ? p : { ...p, firstSeen };
  });
  positions.sort((a, b) => b.value - a.value || a.holderKey.localeCompare(b.holderKey));
  return { seen: true, positions, complete };
}
export {
  positionsAsOf,
  seenBy
};
