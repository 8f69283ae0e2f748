import { digestIssuers, newestFirst, shortPeriod, topMovers } from './digest-facts.js';
import {
  crossedText,
  disclosedOn,
  type StoryLine,
  sourceNote,
  storyLines,
  storySentence,
  totalWithNote,
} from './event-story.js';
import { clipText } from './format.js';
import { formatInstant } from './time.js';
import type {
  BatchMessage,
  DigestMessage,
  EventsMessage,
  IssuerEvents,
  Message,
  NoticeMessage,
  TestMessage,
} from './types.js';

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
  const date = withDate && line.date ? ` · ${line.date}` : '';
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

/** True when the lines carry more than one disclosure date: each line then shows its own. */
function datesDiffer(lines: readonly StoryLine[]): boolean {
  return new Set(lines.map((line) => line.date ?? '')).size > 1;
}

/** `1 short position change`, `3 short position changes`. */
export function changeCount(count: number): string {
  return `${count} short position ${count === 1 ? 'change' : 'changes'}`;
}

function issuerCount(count: number): string {
  return `${count} ${count === 1 ? 'issuer' : 'issuers'}`;
}

/** An issuer's heading in a batch or digest: name and id once, its total, and the shared disclosure date. */
function issuerHeading(issuer: IssuerEvents['issuer'], events: IssuerEvents['events'], markup: ChatMarkup) {
  const lines = storyLines(events);
  const dated = datesDiffer(lines);
  const total = totalWithNote(events, lines);
  const disclosed = dated ? undefined : disclosedOn(lines);
  const parts = [`${markup.bold(markup.name(issuer.name || issuer.id))} (${markup.name(issuer.id)})`];
  const source = sourceNote(events);
  if (source) parts.push(markup.escape(source));
  if (total) parts.push(`total ${markup.escape(total)}`);
  if (disclosed) parts.push(`disclosed ${markup.escape(disclosed)}`);
  return { lines, dated, heading: parts.join(' · ') };
}

/**
 * One issuer's events: the issuer once (the header), one line per holder, then the context line with
 * the id, the total before → after (saying what the message leaves out) and the shared disclosure date.
 */
export function eventsStoryDraft(message: EventsMessage, markup: ChatMarkup): StoryDraft | undefined {
  const { issuer, events } = message;
  if (events.length === 0) return undefined;
  const lines = storyLines(events);
  const dated = datesDiffer(lines);
  const total = totalWithNote(events, lines);
  const disclosed = dated ? undefined : disclosedOn(lines);
  const context = [markup.name(issuer.id)];
  const source = sourceNote(events);
  if (source) context.push(`from ${markup.escape(source)}`);
  if (total) context.push(`Issuer total disclosed short ${markup.escape(total)}`);
  if (disclosed) context.push(`disclosed ${markup.escape(disclosed)}`);
  return {
    header: issuer.name || issuer.id,
    headline: `${markup.name(issuer.name || issuer.id)}: ${changeCount(events.length)}`,
    entries: lines.map((line) => ({
      line: storyMarkup(line, dated, markup),
      sentence: storyText(line, markup),
    })),
    context: context.join(' · '),
  };
}

/** Several issuers' events: a section per issuer under its heading; nothing when none has events. */
export function batchStoryDraft(
  message: BatchMessage,
  markup: ChatMarkup,
  namesMax: number,
): StoryDraft | undefined {
  const groups = message.groups.filter((group) => group.events.length > 0);
  if (groups.length === 0) return undefined;
  const changes = groups.reduce((sum, group) => sum + group.events.length, 0);
  const issuers = issuerCount(groups.length);
  const names = groups.map((group) => group.issuer.name || group.issuer.id).join(', ');
  return {
    header: `Short position changes in ${issuers}`,
    // A summary, not one sentence per event: a batch exists to carry as much as one message can.
    headline: `${changeCount(changes)} in ${issuers}: ${markup.escape(clipText(names, namesMax))}`,
    entries: groups.flatMap((group, index) => {
      const { lines, dated, heading } = issuerHeading(group.issuer, group.events, markup);
      // The index keeps two groups of one issuer apart, should a caller ever pass them.
      const key = `${index}:${group.issuer.id}`;
      return lines.map((line) => ({ group: { key, heading }, line: storyMarkup(line, dated, markup) }));
    }),
  };
}

/**
 * A digest: the period and a count, the top movers when the digest is long enough for them to add
 * something, then a section per issuer (newest news first), each issuer's changes in the order they
 * happened; a holder with several changes is one line with the sequence.
 */
export function digestStoryDraft(message: DigestMessage, markup: ChatMarkup): StoryDraft {
  const { from, to, timezone } = message.period;
  const events = [...message.events].sort(newestFirst);
  const issuers = new Set(events.map((event) => event.issuer.id)).size;
  const period = `${formatInstant(from, timezone, { year: true })} → ${formatInstant(to, timezone, { year: true })} (${markup.escape(timezone)})`;
  const summary = `${changeCount(events.length)} in ${issuerCount(issuers)}`;
  const movers = topMovers(events).map((event) => {
    const [line] = storyLines([event]);
    return line
      ? `${markup.emoji[line.look]} ${markup.name(event.issuer.name)}: ${storyText(line, markup)}`
      : '';
  });
  const body = digestIssuers(events).flatMap(({ issuer, events: group }) => {
    const { lines, dated, heading } = issuerHeading(issuer, group, markup);
    return lines.map((line) => ({
      group: { key: issuer.id, heading },
      line: storyMarkup(line, dated, markup),
    }));
  });
  return {
    header: 'Short positions digest',
    headline: `Short positions digest, ${markup.escape(shortPeriod(message.period))}: ${summary}`,
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
 * The draft of any message for a chat channel: the story drafts for events, batches and digests, the
 * channel's own for notices and test messages. Undefined for an events or batch message with no events.
 */
export function chatDraft<D>(
  message: Message,
  timezone: string,
  chat: { markup: ChatMarkup; namesMax: number; own: OwnDrafts<D> },
): StoryDraft | D | undefined {
  switch (message.type) {
    case 'events':
      return eventsStoryDraft(message, chat.markup);
    case 'batch':
      return batchStoryDraft(message, chat.markup, chat.namesMax);
    case 'digest':
      return digestStoryDraft(message, chat.markup);
    case 'notice':
      return chat.own.notice(message);
    case 'test':
      return chat.own.test(message, timezone);
  }
}
