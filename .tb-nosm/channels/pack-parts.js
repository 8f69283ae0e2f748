function partSuffix(label) {
  return label ? ` (${label.number}/${label.total})` : "";
}
function lastGroupKey(entries) {
  return entries?.at(-1)?.group?.key;
}
function packParts(entries, layout) {
  const widest = Math.max(entries.length, 1);
  const measureLabel = { number: String(widest), total: widest };
  const parts = [];
  let current = [];
  for (const entry of entries) {
    const candidate = [...current, entry];
    const place = { index: parts.length, label: measureLabel, continuedKey: lastGroupKey(parts.at(-1)) };
    if (current.length === 0 || layout.fits(candidate, place)) {
      current = candidate;
    } else {
      parts.push(current);
      current = [entry];
    }
  }
  parts.push(current);
  const total = parts.length;
  return parts.map(
    (part, index) => layout.build(part, {
      index,
      label: total > 1 ? { number: String(index + 1), total } : void 0,
      continuedKey: lastGroupKey(parts[index - 1])
    })
  );
}
export {
  lastGroupKey,
  packParts,
  partSuffix
};
