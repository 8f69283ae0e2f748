import type { PositionEvent } from '../positions/types.js';
import { digestIssuers, newestFirst, topMovers } from './digest-facts.js';
import {
  disclosedOn,
  type StoryLine,
  sourceNote,
  storyLines,
  totalNote,
  totalWithHidden,
} from './event-story.js';
import { displayMessage } from './format.js';
import type { DigestMessage, IssuerRef, Message, NoticeMessage, TestMessage } from './types.js';

/** One issuer's part of a message: its facts, worked out once for every channel. */
export interface IssuerSection {
  /** Tells the sections of one document apart (consecutive lines of one key share a heading). */
  key: string;
  issuer: IssuerRef;
  events: PositionEvent[];
  /** One per holder ({@link storyLines}). */
  lines: StoryLine[];
  /** True when the lines carry more than one disclosure date: each line then shows its own. */
  dated: boolean;
  /** `register afm`: where the events were read, for events of registers. */
  source?: string;
  /** The issuer's total before → after and what the message leaves out ({@link totalWithHidden}). */
  total?: string;
  /** Why the lines do not add up to the total ({@link totalNote}); only beside a total. */
  totalNote?: string;
  /** The disclosure date (or span) the lines share, when they share one. */
  disclosed?: string;
  /** The newest detection instant of the events. */
  detectedAt?: string;
}

/** The events of one issuer: one section. */
export interface EventsDocument {
  type: 'events';
  section: IssuerSection;
}

/** Several issuers coalesced: a section each, those without events left out. */
export interface BatchDocument {
  type: 'batch';
  sections: IssuerSection[];
  changes: number;
}

/** A digest: the period, the largest moves, then a section per issuer, newest news first. */
export interface DigestDocument {
  type: 'digest';
  period: DigestMessage['period'];
  /** Every event, newest first. */
  events: PositionEvent[];
  /** The largest moves ({@link topMovers}), each with its one line; none in a short digest. */
  movers: { event: PositionEvent; line: StoryLine }[];
  sections: IssuerSection[];
  /** Distinct issuers, whatever their sources. */
  issuers: number;
}

/** An operator notice: shortwatch's own text, no story. */
export interface NoticeDocument {
  type: 'notice';
  notice: NoticeMessage;
}

/** The sample `test-notify` sends. */
export interface TestDocument {
  type: 'test';
  test: TestMessage;
}

/**
 * The neutral message document every text channel lays out: what is said (sections of story lines,
 * totals, notes, dates, ids), never how. Slack, Teams and e-mail serialise it; none recomputes a fact.
 */
export type StoryDocument = EventsDocument | BatchDocument | DigestDocument | NoticeDocument | TestDocument;

/** True when the lines carry more than one disclosure date. */
function datesDiffer(lines: readonly StoryLine[]): boolean {
  return new Set(lines.map((line) => line.date ?? '')).size > 1;
}

/** The section of one issuer's events: the story lines, the total and its note, the shared date. */
export function issuerSection(issuer: IssuerRef, events: PositionEvent[], key: string): IssuerSection {
  const lines = storyLines(events);
  const dated = datesDiffer(lines);
  const section: IssuerSection = { key, issuer, events, lines, dated };
  const source = sourceNote(events);
  if (source) section.source = source;
  const total = totalWithHidden(events);
  if (total) {
    section.total = total;
    const note = totalNote(lines);
    if (note) section.totalNote = note;
  }
  const disclosed = dated ? undefined : disclosedOn(lines);
  if (disclosed) section.disclosed = disclosed;
  const newest = events
    .map((event) => event.detectedAt)
    .sort()
    .at(-1);
  if (newest) section.detectedAt = newest;
  return section;
}

/**
 * The total with, when the lines cannot add up to it, why, as one clause after the figures (so that a
 * separator may follow on the same line): for an issuer's heading or context line.
 */
export function totalWithNoteOf(section: IssuerSection): string | undefined {
  const { total, totalNote: note } = section;
  return note ? `${total}; ${note.charAt(0).toLowerCase()}${note.slice(1, -1)}` : total;
}

function digestDocument(message: DigestMessage): DigestDocument {
  const events = [...message.events].sort(newestFirst);
  const movers = topMovers(events).flatMap((event) => {
    const [line] = storyLines([event]);
    return line ? [{ event, line }] : [];
  });
  return {
    type: 'digest',
    period: message.period,
    events,
    movers,
    // The digest's sections keep the issuer id as key, as its headings always have.
    sections: digestIssuers(events).map(({ issuer, events: group }) =>
      issuerSection(issuer, group, issuer.id),
    ),
    issuers: new Set(events.map((event) => event.issuer.id)).size,
  };
}

/** The document of a message whose names are already displayable. */
export function storyDocumentOf(message: Message): StoryDocument {
  switch (message.type) {
    case 'events':
      return { type: 'events', section: issuerSection(message.issuer, message.events, message.issuer.id) };
    case 'batch': {
      const groups = message.groups.filter((group) => group.events.length > 0);
      return {
        type: 'batch',
        // The index keeps two groups of one issuer apart, should a caller ever pass them.
        sections: groups.map((group, index) =>
          issuerSection(group.issuer, group.events, `${index}:${group.issuer.id}`),
        ),
        changes: groups.reduce((sum, group) => sum + group.events.length, 0),
      };
    }
    case 'digest':
      return digestDocument(message);
    case 'notice':
      return { type: 'notice', notice: message };
    case 'test':
      return { type: 'test', test: message };
  }
}

/**
 * Renders a message once into its document, every upstream string made displayable first
 * ({@link displayMessage}): the one step every text channel (Slack, Teams, e-mail) takes.
 */
export function storyDocument(message: Message): StoryDocument {
  return storyDocumentOf(displayMessage(message));
}
