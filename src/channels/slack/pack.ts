import { chunkEscaped } from '../chunk-escaped.js';
import { type GroupedEntry, type PartPlace, packParts, partSuffix } from '../pack-parts.js';
import {
  type SectionBlock,
  SLACK_LIMITS,
  type SlackBlock,
  type SlackPayload,
  withinLimits,
} from './blocks.js';
import { escapeMrkdwn, shortenForEscaped } from './escape.js';

/** One line of a message body: mrkdwn for the blocks and, optionally, a plain sentence for `text`. */
export interface Entry extends GroupedEntry {
  /** Escaped mrkdwn. */
  line: string;
  /** Escaped plain sentence for the fallback text; omitted when the headline already says it. */
  sentence?: string;
}

/** A message before it is cut to Slack's limits. */
export interface Draft {
  /** Raw header text: escaped here, and shortened to fit the header only. */
  header: string;
  /** Escaped first line of the fallback text. */
  headline: string;
  /** From config, placed unescaped at the start of the first part's text and first section. */
  mention?: string;
  entries: Entry[];
  /** Escaped line shown under every part (a context block) and ending its text. */
  context?: string;
}

// An entry longer than these is cut into pieces, so that one entry always fits an empty part
// beside a heading, a headline and a mention. Names are capped well below (see lines.ts).
const LINE_MAX = 2000;
const SENTENCE_MAX = 2000;

/** Cuts a draft into as few payloads as fit every Slack limit; entries are never dropped or cut short. */
export function packDraft(draft: Draft): SlackPayload[] {
  const build = (entries: readonly Entry[], place: PartPlace) => buildPart(draft, entries, place);
  return packParts(draft.entries.flatMap(splitOversized), {
    fits: (entries, place) => withinLimits(build(entries, place)),
    build,
  });
}

function section(text: string): SectionBlock {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}

/** One payload: header, the entries' sections, the context; the first part carries the mention. */
function buildPart(draft: Draft, entries: readonly Entry[], place: PartPlace): SlackPayload {
  const { continuedKey } = place;
  const label = partSuffix(place.label);
  const mention = place.index === 0 ? draft.mention : undefined;
  const header = `${escapeMrkdwn(shortenForEscaped(draft.header, SLACK_LIMITS.headerText - label.length))}${label}`;
  const blocks: SlackBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: header, emoji: true } },
    ...bodyBlocks(entries, mention, continuedKey),
  ];
  if (draft.context) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: draft.context }] });
  const first = `${mention ? `${mention} ` : ''}${draft.headline}${label}`;
  const sentences = entries.flatMap((entry) => (entry.sentence ? [entry.sentence] : []));
  const text = [first, ...sentences, ...(draft.context ? [draft.context] : [])].join('\n');
  return { text, blocks };
}

/** Sections of entries: a group opens a section under its heading; a full section continues in the next. */
function bodyBlocks(
  entries: readonly Entry[],
  mention: string | undefined,
  continuedKey: string | undefined,
) {
  const blocks: SlackBlock[] = [];
  let pendingMention = mention;
  let lines: string[] = [];
  let length = 0;
  const flush = () => {
    if (lines.length > 0) blocks.push(section(lines.join('\n')));
    lines = [];
    length = 0;
  };
  const add = (line: string) => {
    const text = pendingMention ? `${pendingMention} ${line}` : line;
    pendingMention = undefined;
    length += (lines.length > 0 ? 1 : 0) + text.length;
    lines.push(text);
  };
  let openKey: string | undefined;
  entries.forEach((entry, position) => {
    const key = entry.group?.key;
    if (position === 0 || key !== openKey) {
      flush();
      openKey = key;
      if (entry.group) {
        const continued = position === 0 && key === continuedKey;
        if (!continued && blocks.length > 0) blocks.push({ type: 'divider' });
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

/** Cuts an entry whose line or sentence is too long into several, each piece at most the limit. */
function splitOversized(entry: Entry): Entry[] {
  if (entry.line.length <= LINE_MAX && (entry.sentence?.length ?? 0) <= SENTENCE_MAX) return [entry];
  const lines = chunkEscaped(entry.line, LINE_MAX, MRKDWN_ATOMS);
  const sentences = entry.sentence ? chunkEscaped(entry.sentence, SENTENCE_MAX, MRKDWN_ATOMS) : [];
  const count = Math.max(lines.length, sentences.length);
  return Array.from({ length: count }, (_, i) => {
    const piece: Entry = { line: lines[i] ?? '…' };
    if (entry.group) piece.group = entry.group;
    const sentence = sentences[i];
    if (sentence) piece.sentence = sentence;
    return piece;
  });
}

/** An atom of escaped mrkdwn: an entity, or one code point. */
const MRKDWN_ATOMS = /&(?:amp|lt|gt);|[\s\S]/gu;
