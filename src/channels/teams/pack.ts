import { chunkEscaped } from '../chunk-escaped.js';
import {
  type GroupedEntry,
  lastGroupKey,
  type PartLabel,
  type PartPlace,
  packParts,
  partSuffix,
} from '../pack-parts.js';
import {
  jsonBytes,
  TEAMS_MAX_BYTES,
  type TeamsPayload,
  type TextBlock,
  teamsPayload,
  textBlock,
} from './card.js';
import { escapeTeams, shortenText } from './escape.js';

/** One line of a card body, escaped Markdown; its group's heading is escaped too. */
export interface Entry extends GroupedEntry {
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

/** A part's entries and place; the place's index is not used (every Teams part looks alike). */
interface Plan {
  entries: readonly Entry[];
  place: PartPlace;
}

/** Cuts a draft into as few cards as fit the byte limit; entries are never dropped or cut short. */
export function packDraft(draft: Draft, options: PackOptions = {}): TeamsPart[] {
  const max = options.maxBytes ?? TEAMS_MAX_BYTES;
  return packParts(draft.entries.flatMap(splitOversized), {
    fits: (entries, place) => jsonBytes(buildCard(draft, entries, place, options)) <= max,
    build: (entries, place) => toPart(draft, options, { entries, place }),
  });
}

function toPart(draft: Draft, options: PackOptions, plan: Plan): TeamsPart {
  const payload = buildCard(draft, plan.entries, plan.place, options);
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
  const { label, index, continuedKey } = plan.place;
  const [one, two]: [PartLabel, PartLabel] = label
    ? [
        { number: `${label.number}a`, total: label.total },
        { number: `${label.number}b`, total: label.total },
      ]
    : [
        { number: '1', total: 2 },
        { number: '2', total: 2 },
      ];
  return [
    { entries: first, place: { index, label: one, continuedKey } },
    { entries: plan.entries.slice(middle), place: { index, label: two, continuedKey: lastGroupKey(first) } },
  ];
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
  place: PartPlace,
  options: PackOptions,
): TeamsPayload {
  const { continuedKey } = place;
  const suffix = partSuffix(place.label);
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
