import { chunkEscaped } from "../chunk-escaped.js";
import { packParts, partSuffix } from "../pack-parts.js";
import {
  SLACK_LIMITS,
  withinLimits
} from "./blocks.js";
import { escapeMrkdwn, shortenForEscaped } from "./escape.js";
const LINE_MAX = 2e3;
const SENTENCE_MAX = 2e3;
function packDraft(draft) {
  const build = (entries, place) => buildPart(draft, entries, place);
  return packParts(draft.entries.flatMap(splitOversized), {
    fits: (entries, place) => withinLimits(build(entries, place)),
    build
  });
}
function section(text) {
  return { type: "section", text: { type: "mrkdwn", text } };
}
function buildPart(draft, entries, place) {
  const { continuedKey } = place;
  const label = partSuffix(place.label);
  const mention = place.index === 0 ? draft.mention : void 0;
  const header = `${escapeMrkdwn(shortenForEscaped(draft.header, SLACK_LIMITS.headerText - label.length))}${label}`;
  const blocks = [
    { type: "header", text: { type: "plain_text", text: header, emoji: true } },
    ...bodyBlocks(entries, mention, continuedKey)
  ];
  if (draft.context) blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: draft.context }] });
  const first = `${mention ? `${mention} ` : ""}${draft.headline}${label}`;
  const sentences = entries.flatMap((entry) => entry.sentence ? [entry.sentence] : []);
  const text = [first, ...sentences, ...draft.context ? [draft.context] : []].join("\n");
  return { text, blocks };
}
function bodyBlocks(entries, mention, continuedKey) {
  const blocks = [];
  let pendingMention = mention;
  let lines = [];
  let length = 0;
  const flush = () => {
    if (lines.length > 0) blocks.push(section(lines.join("\n")));
    lines = [];
    length = 0;
  };
  const add = (line) => {
    const text = pendingMention ? `${pendingMention} ${line}` : line;
    pendingMention = void 0;
    length += (lines.length > 0 ? 1 : 0) + text.length;
    lines.push(text);
  };
  let openKey;
  entries.forEach((entry, position) => {
    const key = entry.group?.key;
    if (position === 0 || key !== openKey) {
      flush();
      openKey = key;
      if (entry.group) {
        const continued = position === 0 && key === continuedKey;
        if (!continued && blocks.length > 0) blocks.push({ type: "divider" });
        add(continued ? `${entry.group.heading} (continued)` : entry.group.heading);
      }
    } else if (length + 1 + entry.line.length > SLACK_LIMITS.sectionText) {
      flush();
      if (entry.group) add(`${entry.group.heading} (continued)`);
    }
    add(entry.line);
  });
  flush();
  return blocks;
}
function splitOversized(entry) {
  if (entry.line.length <= LINE_MAX && (entry.sentence?.length ?? 0) <= SENTENCE_MAX) return [entry];
  const lines = chunkEscaped(entry.line, LINE_MAX, MRKDWN_ATOMS);
  const sentences = entry.sentence ? chunkEscaped(entry.sentence, SENTENCE_MAX, MRKDWN_ATOMS) : [];
  const count = Math.max(lines.length, sentences.length);
  return Array.from({ length: count }, (_, i) => {
    const piece = { line: lines[i] ?? "\u2026" };
    if (entry.group) piece.group = entry.group;
    const sentence = sentences[i];
    if (sentence) piece.sentence = sentence;
    return piece;
  });
}
const MRKDWN_ATOMS = /&(?:amp|lt|gt);|[\s\S]/gu;
export {
  packDraft
};
