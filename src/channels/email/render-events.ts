import { type IssuerSection, issuerSection } from '../story-document.js';
import { formatInstant } from '../time.js';
import type { EventsMessage } from '../types.js';
import {
  CLOSED_NOTE,
  EVENT_COLUMNS,
  eventHeadline,
  needsBelowNote,
  oneLineEvent,
  storyRow,
  storyTextLines,
  subjectEvent,
  textEnding,
} from './event-facts.js';
import { escapeHtml, htmlLayout, htmlParagraph, htmlTable } from './html.js';
import type { RenderedEmail, RenderOptions } from './rendered.js';
import { eventsSubject } from './subject.js';
import { clipChars, countChanges, MAX_SUBJECT_NAME_CHARS, oneLine, toSubject } from './text.js';

/** The email of one issuer's events, for a caller holding the message (names folded onto one line). */
export function renderEvents(message: EventsMessage, options: RenderOptions): RenderedEmail {
  const issuer = { ...message.issuer, name: oneLine(message.issuer.name) };
  return eventsEmail(issuerSection(issuer, message.events.map(oneLineEvent), issuer.id), options);
}

/**
 * The email of one issuer's section. Its subject says what happened and names the issuer; the alerts of
 * one issuer and day thread by their References header (headers.ts). The headline (title and first line,
 * the inbox preview) says it in a sentence.
 */
export function eventsEmail(section: IssuerSection, options: RenderOptions): RenderedEmail {
  const { issuer, events, lines, total, totalNote: note, source } = section;
  const issuerName = issuer.name;
  const [only] = events;
  // The headline is the subject: names are clipped there, and the rows below carry them in full.
  const headline =
    events.length === 1 && only
      ? eventHeadline(subjectEvent(only))
      : `${countChanges(events.length)} in ${clipChars(issuerName, MAX_SUBJECT_NAME_CHARS)}`;
  const totalLine = total ? `Total disclosed short in ${issuerName}: ${total}` : undefined;
  const hasClosed = needsBelowNote(lines);
  const newest = section.detectedAt;
  const detected = newest ? ` · detected ${formatInstant(newest, options.timezone, { year: true })}` : '';
  const from = source ? ` · from ${oneLine(source)}` : '';
  const footer = `shortwatch · issuer ${oneLine(issuer.id)}${from}${detected} (${options.timezone})`;

  const text = [
    headline,
    '',
    ...lines.flatMap(storyTextLines),
    ...(totalLine ? ['', totalLine] : []),
    ...(note ? [note] : []),
    ...textEnding(hasClosed, footer),
  ].join('\n');

  const body = [
    htmlTable(EVENT_COLUMNS, lines.map(storyRow)),
    ...(totalLine ? [htmlParagraph(`<strong>${escapeHtml(totalLine)}</strong>`)] : []),
    ...(note ? [htmlParagraph(escapeHtml(note), true)] : []),
    ...(hasClosed ? [htmlParagraph(escapeHtml(CLOSED_NOTE), true)] : []),
  ].join('\n');

  const subject = toSubject(eventsSubject(issuerName, events));
  return { subject, text, html: htmlLayout({ title: headline, body, footer }) };
}
