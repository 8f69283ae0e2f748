import { issuerSection } from "../story-document.js";
import { formatInstant } from "../time.js";
import {
  CLOSED_NOTE,
  EVENT_COLUMNS,
  eventHeadline,
  needsBelowNote,
  oneLineEvent,
  storyRow,
  storyTextLines,
  subjectEvent,
  textEnding
} from "./event-facts.js";
import { escapeHtml, htmlLayout, htmlParagraph, htmlTable } from "./html.js";
import { eventsSubject } from "./subject.js";
import { clipChars, countChanges, MAX_SUBJECT_NAME_CHARS, oneLine, toSubject } from "./text.js";
function renderEvents(message, options) {
  const issuer = { ...message.issuer, name: oneLine(message.issuer.name) };
  return eventsEmail(issuerSection(issuer, message.events.map(oneLineEvent), issuer.id), options);
}
function eventsEmail(section, options) {
  const { issuer, events, lines, total, totalNote: note, source } = section;
  const issuerName = issuer.name;
  const [only] = events;
  const headline = events.length === 1 && only ? eventHeadline(subjectEvent(only)) : `${countChanges(events.length)} in ${clipChars(issuerName, MAX_SUBJECT_NAME_CHARS)}`;
  const totalLine = total ? `Total disclosed short in ${issuerName}: ${total}` : void 0;
  const hasClosed = needsBelowNote(lines);
  const newest = section.detectedAt;
  const detected = newest ? ` \xB7 detected ${formatInstant(newest, options.timezone, { year: true })}` : "";
  const from = source ? ` \xB7 from ${oneLine(source)}` : "";
  const footer = `shortwatch \xB7 issuer ${oneLine(issuer.id)}${from}${detected} (${options.timezone})`;
  const text = [
    headline,
    "",
    ...lines.flatMap(storyTextLines),
    ...totalLine ? ["", totalLine] : [],
    ...note ? [note] : [],
    ...textEnding(hasClosed, footer)
  ].join("\n");
  const body = [
    htmlTable(EVENT_COLUMNS, lines.map(storyRow)),
    ...totalLine ? [htmlParagraph(`<strong>${escapeHtml(totalLine)}</strong>`)] : [],
    ...note ? [htmlParagraph(escapeHtml(note), true)] : [],
    ...hasClosed ? [htmlParagraph(escapeHtml(CLOSED_NOTE), true)] : []
  ].join("\n");
  const subject = toSubject(eventsSubject(issuerName, events));
  return { subject, text, html: htmlLayout({ title: headline, body, footer }) };
}
export {
  eventsEmail,
  renderEvents
};
