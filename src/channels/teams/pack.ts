import { chunkEscaped } from '../chunk-escaped.js';
import {
  jsonBytes,
  TEAMS_MAX_BYTES,
  type TeamsPayload,
  type TextBlock,
  teamsPayload,
  textBlock,
} from './card.js';
import { escapeTeams, shortenText } from './escape.js';

/** One line of a card body, escaped Markdown. */
export interface Entry {
  /** Consecutive entries of one group sit under its `heading` (escaped); a new group starts a new one. */
  group?: { key: string; heading: string };
  line: string;
}

/** A message before it is cut into cards that fit {@link TEAMS_MAX_BYTES}. */
export interface Draft {
  /** Raw title text: escaped here and shown large at the top of every part. */
  header: string;
  entries: Entry[];
  /** Escaped line shown small under the entries of every part. */
  context?: string;
}

/** What a card shows besides the draft. */
export interface PackOptions {
  /** Shown small at the foot of every part, so a reader can tell a repeat (the same id) from news. */
  deliveryId?: string;
  /** Most bytes of one part; {@link TEAMS_MAX_BYTES} unless a test asks for less. */
  maxBytes?: number;
}

/** One request of a message, and how to send it in two should Teams still find it too large (413). */
export interface TeamsPart {
  payload: TeamsPayload;
  /** Bytes of the UTF-8 JSON body. */
  bytes: number;
  /** The same entries as two cards, or undefined when the part holds a single entry. */
  split(): TeamsPart[] | undefined;
}

// Longer lines are cut into pieces (only notices can have them: names are capped in escape.ts), so that
// one entry always fits an empty part, even in 4-byte characters.
const LINE_MAX = 2000;
const HEADER_MAX = 600;

/** Where a part sits in its message: `2/3`; halves of a refused part are `2a/3` and `2b/3`. */
interface Label {
  number: string;
  total: number;
}

interface Plan {
  entries: Entry[];
  label: Label | undefined;
  /** The group the previous part ended in: its heading shows again, marked continued. */
  continuedKey: string | undefined;
}

/** Cuts a draft into as few cards as fit the byte limit; entries are never dropped or cut short. */
export function packDraft(draft: Draft, options: PackOptions = {}): TeamsPart[] {
  const entries = draft.entries.flatMap(splitOversized);
  const max = options.maxBytes ?? TEAMS_MAX_BYTES;
  // Parts never outnumber entries, so this label is at least as long as the final one.
  const widest = Math.max(entries.length, 1);
  const overhead = jsonBytes(buildCard(draft, [], { number: String(widest), total: widest }, options));
  const groups: Entry[][] = [];
  let current: Entry[] = [];
  let used = 0;
  for (const entry of entries) {
    const continued = lastGroupKey(groups.at(-1));
    let cost = blocksBytes(entryBlocks(entry, current.at(-1), current.length === 0 ? continued : undefined));
    if (current.length > 0 && overhead + used + cost > max) {
      groups.push(current);
      current = [];
      used = 0;
      cost = blocksBytes(entryBlocks(entry, undefined, lastGroupKey(groups.at(-1))));
    }
    current.push(entry);
    used += cost;
  }
  groups.push(current);
  const total = groups.length;
  return groups.map((part, index) =>
    toPart(draft, options, {
      entries: part,
      label: total > 1 ? { number: String(index + 1), total } : undefined,
      continuedKey: lastGroupKey(groups[index - 1]),
    }),
  );
}

function toPart(draft: Draft, options: PackOptions, plan: Plan): TeamsPart {
  const payload = buildCard(draft, plan.entries, plan.label, options, plan.continuedKey);
  return {
    payload,
    bytes: jsonBytes(payload),
    split: () => halves(plan)?.map((half) => toPart(draft, options, half)),
  };
}

/** A plan's entries in two halves, labelled `1/2`, `2/2` (a whole message) or `2a/3`, `2b/3` (a part). */
function halves(plan: Plan): [Plan, Plan] | undefined {
  if (plan.entries.length <= 1) return undefined;
  const middle = Math.ceil(plan.entries.length / 2);
  const first = plan.entries.slice(0, middle);
  const [one, two]: [Label, Label] = plan.label
    ? [
        { number: `${plan.label.number}a`, total: plan.label.total },
        { number: `${plan.label.number}b`, total: plan.label.total },
      ]
    : [
        { number: '1', total: 2 },
        { number: '2', total: 2 },
      ];
  return [
    { entries: first, label: one, continuedKey: plan.continuedKey },
    { entries: plan.entries.slice(middle), label: two, continuedKey: lastGroupKey(first) },
  ];
}

function lastGroupKey(entries: readonly Entry[] | undefined): string | undefined {
  return entries?.at(-1)?.group?.key;
}

/** JSON bytes the blocks add to a body array: each block and its comma. */
function blocksBytes(blocks: readonly TextBlock[]): number {
  return blocks.reduce((sum, block) => sum + jsonBytes(block) + 1, 0);
}

/**
 * The blocks one entry adds after `previous` (undefined: it opens the part, under `continuedKey`'s
 * heading marked continued when it goes on with that group): a heading when it opens a group, then its line.
 */
function entryBlocks(
  entry: Entry,
  previous: Entry | undefined,
  continuedKey: string | undefined,
): TextBlock[] {
  const line = textBlock(entry.line, { spacing: 'Small' });
  const { group } = entry;
  if (!group || (previous && previous.group?.key === group.key)) return [line];
  const continued = !previous && group.key === continuedKey;
  const heading = continued ? `${group.heading} (continued)` : group.heading;
  // Issuers are set apart by a rule, except the first thing under the title.
  return [
    textBlock(heading, previous ? { spacing: 'Medium', separator: true } : { spacing: 'Medium' }),
    line,
  ];
}

/** One card: the title (with its part label), the entries under their headings, the context, the delivery id. */
function buildCard(
  draft: Draft,
  entries: readonly Entry[],
  label: Label | undefined,
  options: PackOptions,
  continuedKey?: string,
): TeamsPayload {
  const suffix = label ? ` (${label.number}/${label.total})` : '';
  const title = `${escapeTeams(shortenText(draft.header, HEADER_MAX))}${suffix}`;
  const body: TextBlock[] = [textBlock(title, { size: 'Large', weight: 'Bolder' })];
  entries.forEach((entry, index) => {
    body.push(...entryBlocks(entry, entries[index - 1], index === 0 ? continuedKey : undefined));
  });
  // Small print under a rule: the context, then the delivery id.
  const id = options.deliveryId ? `Delivery ${escapeTeams(options.deliveryId)}` : undefined;
  const small = [draft.context, id].filter((text): text is string => Boolean(text));
  small.forEach((text, index) => {
    const place = index === 0 ? { separator: true as const } : { spacing: 'Small' as const };
    body.push(textBlock(text, { size: 'Small', isSubtle: true, ...place }));
  });
  return teamsPayload(body);
}

/** Cuts an entry whose line is too long into several, each at most {@link LINE_MAX} characters. */
function splitOversized(entry: Entry): Entry[] {
  if (entry.line.length <= LINE_MAX) return [entry];
  return chunkEscaped(entry.line, LINE_MAX, TEXT_BLOCK_ATOMS).map((line) =>
    entry.group ? { group: entry.group, line } : { line },
  );
}

/** An atom of escaped TextBlock text: a backslash escape, or one code point. */
const TEXT_BLOCK_ATOMS = /\\[\s\S]|[\s\S]/gu;
