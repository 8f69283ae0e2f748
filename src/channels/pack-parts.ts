/** A line of a message body; consecutive entries of one group sit under the group's heading. */
export interface GroupedEntry {
  group?: { key: string; heading: string };
}

/** Where a part sits in its message: `2/3` (`2a/3` for half of a part a channel refused). */
export interface PartLabel {
  number: string;
  total: number;
}

/** A part's place: its index, its label (none for a message of one part), the group the part before ended in. */
export interface PartPlace {
  index: number;
  label: PartLabel | undefined;
  continuedKey: string | undefined;
}

/** One channel's layout: whether a part fits the channel's limits, and the part itself. */
export interface PartLayout<E, P> {
  fits(entries: readonly E[], place: PartPlace): boolean;
  build(entries: readonly E[], place: PartPlace): P;
}

/** ` (2/3)`, the suffix of a labelled part's title; empty without a label. */
export function partSuffix(label: PartLabel | undefined): string {
  return label ? ` (${label.number}/${label.total})` : '';
}

/** The group the last entry of a part belongs to: the next part shows its heading again, continued. */
export function lastGroupKey(entries: readonly GroupedEntry[] | undefined): string | undefined {
  return entries?.at(-1)?.group?.key;
}

/**
 * The one packer behind every chat channel: cuts entries into as few parts as fit the channel's limits
 * (Slack's blocks and characters, a Teams card's bytes), in order, never dropping or cutting an entry. A
 * part is measured with the widest label its message can carry, so that the final labels still fit; an
 * entry always goes into an empty part (the channel splits oversized entries before).
 */
export function packParts<E extends GroupedEntry, P>(entries: readonly E[], layout: PartLayout<E, P>): P[] {
  // Parts never outnumber entries, so this label is at least as long as the final one.
  const widest = Math.max(entries.length, 1);
  const measureLabel = { number: String(widest), total: widest };
  const parts: E[][] = [];
  let current: E[] = [];
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
  return parts.map((part, index) =>
    layout.build(part, {
      index,
      label: total > 1 ? { number: String(index + 1), total } : undefined,
      continuedKey: lastGroupKey(parts[index - 1]),
    }),
  );
}
