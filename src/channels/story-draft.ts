import { shortPeriod } from './digest-facts.js';
import { crossedText, dateClause, type StoryLine, storySentence } from './event-story.js';
import { clipText } from './format.js';
import {
  type BatchDocument,
  type DigestDocument,
  type IssuerSection,
  storyDocument,
  storyDocumentOf,
  totalWithNoteOf,
} from './story-document.js';
import { formatInstant } from './time.js';
import type { EventsMessage, Message, NoticeMessage, TestMessage } from './types.js';

/**
 * What a chat channel's markup needs to show the story lines: Slack's mrkdwn and Teams' Markdown differ
 * in escaping, bold and emoji only, so the drafts (what each message says, in which order) are shared.
 */
export interface ChatMarkup {
  /** Escapes text so that it shows as written. */
  escape(text: string): string;
  /** Bold of already escaped text. */
  bold(escaped: string): string;
  /** An upstream name, escaped and capped to what a line can hold. */
  name(raw: string): string;
  /** An upstream name cut (not escaped) for a plain sentence. */
  shortName(raw: string): string;
  /** One emoji per look, all distinct. */
  emoji: Record<StoryLine['look'], string>;
}

/** One line of a draft: markup, and optionally a plain sentence (Slack's notification text). */
export interface StoryEntry {
  /** Consecutive entries of one group share a heading; a new group starts a section. */
  group?: { key: string; heading: string };
  line: string;
  sentence?: string;
}

/** A chat message before it is cut to the channel's limits. */
export interface StoryDraft {
  /** Raw header text (escaped by the packer). */
  header: string;
  /** Escaped first line of a notification. */
  headline: string;
  entries: StoryEntry[];
  /** Escaped line shown under every part. */
  context?: string;
}

/**
 * One line per holder: emoji, holder, what happened, old → new (change), the disclosure date when the
 * message's lines do not share one (the context line says it then), thresholds crossed.
 */
export function storyMarkup(line: StoryLine, withDate: boolean, markup: ChatMarkup): string {
  const what = markup.escape(line.phrase ? `${line.what} ·` : line.what);
  const delta = line.delta ? ` (${line.delta})` : '';
  const date = dateClause(line, ' · ', withDate);
  const crossed = crossedText(line);
  const rest = markup.escape(`${delta}${date}${crossed ? ` · ${crossed}` : ''}`);
  return `${markup.emoji[line.look]} ${markup.bold(markup.name(line.holder))} ${what} ${boldLast(line, markup)}${rest}`;
}

/**
 * Old → **new**: the value the position stands at now is bold, when it is a disclosed value still listed.
 * Values are shortwatch's own text (formatted numbers and fixed words): nothing in them needs escaping.
 */
function boldLast(line: StoryLine, markup: ChatMarkup): string {
  const cut = line.values.lastIndexOf(' → ');
  const head = cut < 0 ? '' : line.values.slice(0, cut + 3);
  const last = line.values.slice(head.length);
  // `below 0.5%`, `off the list at 0.48%`: where the position went, not a value it stands at.
  if (!line.date || !/^\d/.test(last)) return line.values;
  return `${head}${markup.bold(last)}`;
}

/** The line's plain sentence ({@link storySentence}), escaped, with the thresholds crossed. */
export function storyText(line: StoryLine, markup: ChatMarkup): string {
  const sentence = markup.escape(storySentence({ ...line, holder: markup.shortName(line.holder) }));
  const crossed = crossedText(line);
  return crossed ? `${sentence}; ${crossed}` : sentence;
}

/** `1 short position change`, `3 short position changes`. */
export function changeCount(count: number): string {
  return `${count} short position ${count === 1 ? 'change' : 'changes'}`;
}

function issuerCount(count: number): string {
  return `${count} ${count === 1 ? 'issuer' : 'issuers'}`;
}

/** An issuer's heading in a batch or digest: name and id once, its total, and the shared disclosure date. */
function issuerHeading(section: IssuerSection, markup: ChatMarkup): string {
  const { issuer, source, disclosed } = section;
  const total = totalWithNoteOf(section);
  const parts = [`${markup.bold(markup.name(issuer.name || issuer.id))} (${markup.name(issuer.id)})`];
  if (source) parts.push(markup.escape(source));
  if (total) parts.push(`total ${markup.escape(total)}`);
  if (disclosed) parts.push(`disclosed ${markup.escape(disclosed)}`);
  return parts.join(' · ');
}

/** A section's lines under its heading, one entry each. */
function sectionEntries(section: IssuerSection, markup: ChatMarkup): StoryEntry[] {
  const group = { key: section.key, heading: issuerHeading(section, markup) };
  return section.lines.map((line) => ({ group, line: storyMarkup(line, section.dated, markup) }));
}

/**
 * One issuer's events: the issuer once (the header), one line per holder, then the context line with
 * the id, the total before → after (saying what the message leaves out) and the shared disclosure date.
 */
function eventsDraft(section: IssuerSection, markup: ChatMarkup): StoryDraft | undefined {
  const { issuer, events, source, disclosed } = section;
  if (events.length === 0) return undefined;
  const total = totalWithNoteOf(section);
  const context = [markup.name(issuer.id)];
  if (source) context.push(`from ${markup.escape(source)}`);
  if (total) context.push(`Issuer total disclosed short ${markup.escape(total)}`);
  if (disclosed) context.push(`disclosed ${markup.escape(disclosed)}`);
  return {
    header: issuer.name || issuer.id,
    headline: `${markup.name(issuer.name || issuer.id)}: ${changeCount(events.length)}`,
    entries: section.lines.map((line) => ({
      line: storyMarkup(line, section.dated, markup),
      sentence: storyText(line, markup),
    })),
    context: context.join(' · '),
  };
}

/** The chat draft of one issuer's events (the document built here): for callers holding a message. */
export function eventsStoryDraft(message: EventsMessage, markup: ChatMarkup): StoryDraft | undefined {
  const document = storyDocumentOf(message);
  return document.type === 'events' ? eventsDraft(document.section, markup) : undefined;
}

/** Several issuers' events: a section per issuer under its heading; nothing when none has events. */
function batchDraft(document: BatchDocument, markup: ChatMarkup, namesMax: number): StoryDraft | undefined {
  const { sections, changes } = document;
  if (sections.length === 0) return undefined;
  const issuers = issuerCount(sections.length);
  const names = sections.map((section) => section.issuer.name || section.issuer.id).join(', ');
  return {
    header: `Short position changes in ${issuers}`,
    // A summary, not one sentence per event: a batch exists to carry as much as one message can.
    headline: `${changeCount(changes)} in ${issuers}: ${markup.escape(clipText(names, namesMax))}`,
    entries: sections.flatMap((section) => sectionEntries(section, markup)),
  };
}

/**
 * A digest: the period and a count, the top movers when the digest is long enough for them to add
 * something, then a section per issuer (newest news first), each issuer's changes in the order they
 * happened; a holder with several changes is one line with the sequence.
 */
function digestDraft(document: DigestDocument, markup: ChatMarkup): StoryDraft {
  const { from, to, timezone } = document.period;
  const period = `${formatInstant(from, timezone, { year: true })} → ${formatInstant(to, timezone, { year: true })} (${markup.escape(timezone)})`;
  const summary = `${changeCount(document.events.length)} in ${issuerCount(document.issuers)}`;
  const movers = document.movers.map(
    ({ event, line }) =>
      `${markup.emoji[line.look]} ${markup.name(event.issuer.name)}: ${storyText(line, markup)}`,
  );
  const body = document.sections.flatMap((section) => sectionEntries(section, markup));
  return {
    header: 'Short positions digest',
    headline: `Short positions digest, ${markup.escape(shortPeriod(document.period))}: ${summary}`,
    entries: [
      { line: `${markup.bold('Period:')} ${period} · ${summary}` },
      // One entry a line: a card shows each as its own text, where a lone newline may not break.
      ...(movers.length > 0
        ? [{ line: markup.bold('Top movers') }, ...movers.map((line) => ({ line }))]
        : []),
      ...(body.length > 0 ? body : [{ line: 'No short position changed in this period.' }]),
    ],
  };
}

/** A chat channel's own drafts: notices and test messages, whose look differs between Slack and Teams. */
export interface OwnDrafts<D> {
  notice(message: NoticeMessage): D;
  test(message: TestMessage, timezone: string): D;
}

/**
 * The draft of any message for a chat channel, from its document ({@link storyDocument}): the story
 * drafts for events, batches and digests, the channel's own for notices and test messages. Undefined
 * for an events or batch message with no events.
 */
export function chatDraft<D>(
  message: Message,
  timezone: string,
  chat: { markup: ChatMarkup; namesMax: number; own: OwnDrafts<D> },
): StoryDraft | D | undefined {
  const document = storyDocument(message);
  switch (document.type) {
    case 'events':
      return eventsDraft(document.section, chat.markup);
    case 'batch':
      return batchDraft(document, chat.markup, chat.namesMax);
    case 'digest':
      return digestDraft(document, chat.markup);
    case 'notice':
      return chat.own.notice(document.notice);
    case 'test':
      return chat.own.test(document.test, timezone);
  }
}
