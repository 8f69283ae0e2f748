import { chunkEscaped } from "../chunk-escaped.js";
import {
  lastGroupKey,
  packParts,
  partSuffix
} from "../pack-parts.js";
import {
  jsonBytes,
  TEAMS_MAX_BYTES,
  teamsPayload,
  textBlock
} from "./card.js";
import { escapeTeams, shortenText } from "./escape.js";
const LINE_MAX = 2e3;
const HEADER_MAX = 600;
function packDraft(draft, options = {}) {
  const max = options.maxBytes ?? TEAMS_MAX_BYTES;
  return packParts(draft.entries.flatMap(splitOversized), {
    fits: (entries, place) => jsonBytes(buildCard(draft, entries, place, options)) <= max,
    build: (entries, place) => toPart(draft, options, { entries, place })
  });
}
function toPart(draft, options, plan) {
  const payload = buildCard(draft, plan.entries, plan.place, options);
  return {
    payload,
    bytes: jsonBytes(payload),
    split: () => halves(plan)?.map((half) => toPart(draft, options, half))
  };
}
function halves(plan) {
  if (plan.entries.length <= 1) return void 0;
  const middle = Math.ceil(plan.entries.length / 2);
  const first = plan.entries.slice(0, middle);
  const { label, index, continuedKey } = plan.place;
  const [one, two] = label ? [
    { number: `${label.number}a`, total: label.total },
    { number: `${label.number}b`, total: label.total }
  ] : [
    { number: "1", total: 2 },
    { number: "2", total: 2 }
  ];
  return [
    { entries: first, place: { index, label: one, continuedKey } },
    { entries: plan.entries.slice(middle), place: { index, label: two, continuedKey: lastGroupKey(first) } }
  ];
}
function entryBlocks(entry, previous, continuedKey) {
  const line = textBlock(entry.line, { spacing: "Small" });
  const { group } = entry;
  if (!group || previous && previous.group?.key === group.key) return [line];
  const continued = !previous && group.key === continuedKey;
  const heading = continued ? `${group.heading} (continued)` : group.heading;
  return [
    textBlock(heading, previous ? { spacing: "Medium", separator: true } : { spacing: "Medium" }),
    line
  ];
}
function buildCard(draft, entries, place, options) {
  const { continuedKey } = place;
  const suffix = partSuffix(place.label);
  const title = `${escapeTeams(shortenText(draft.header, HEADER_MAX))}${suffix}`;
  const body = [textBlock(title, { size: "Large", weight: "Bolder" })];
  entries.forEach((entry, index) => {
    body.push(...entryBlocks(entry, entries[index - 1], index === 0 ? continuedKey : void 0));
  });
  const id = options.deliveryId ? `Delivery ${escapeTeams(options.deliveryId)}` : void 0;
  const small = [draft.context, id].filter((text) => Boolean(text));
  small.forEach((text, index) => {
    const place2 = index === 0 ? { separator: true } : { spacing: "Small" };
    body.push(textBlock(text, { size: "Small", isSubtle: true, ...place2 }));
  });
  return teamsPayload(body);
}
function splitOversized(entry) {
  if (entry.line.length <= LINE_MAX) return [entry];
  return chunkEscaped(entry.line, LINE_MAX, TEXT_BLOCK_ATOMS).map(
    (line) => entry.group ? { group: entry.group, line } : { line }
  );
}
const TEXT_BLOCK_ATOMS = /\\[\s\S]|[\s\S]/gu;
export {
  packDraft
};
