import { totalWithNoteOf } from "../story-document.js";
import { formatInstant } from "../time.js";
import {
  CLOSED_NOTE,
  EVENT_COLUMNS,
  needsBelowNote,
  storyRow,
  storyTextLines,
  textEnding
} from "./event-facts.js";
import { escapeHtml, htmlHeading, htmlLayout, htmlParagraph, htmlTable } from "./html.js";
import { linesSummary } from "./subject.js";
import { oneLine, toSubject } from "./text.js";
function issuerCount(count) {
  return `${count} ${count === 1 ? "issuer" : "issuers"}`;
}
function batchHeadline(changes, issuers) {
  return `${changes} short position ${changes === 1 ? "change" : "changes"} in ${issuerCount(issuers)}`;
}
function sectionTitle(section) {
  const { issuer, source } = section;
  return `${oneLine(issuer.name)} (${oneLine(issuer.id)})${source ? `, ${oneLine(source)}` : ""}`;
}
function sectionText(section) {
  const total = totalWithNoteOf(section);
  const title = total ? `${sectionTitle(section)}: total disclosed short ${total}` : sectionTitle(section);
  return ["", title, ...section.lines.flatMap(storyTextLines)];
}
function sectionHtml(section) {
  const withNote = totalWithNoteOf(section);
  const total = withNote ? [htmlParagraph(escapeHtml(`Total disclosed short ${withNote}`), true)] : [];
  return [
    htmlHeading(escapeHtml(sectionTitle(section))),
    ...total,
    htmlTable(EVENT_COLUMNS, section.lines.map(storyRow))
  ];
}
function batchEmail(document, options) {
  const { sections } = document;
  const lines = sections.flatMap((section) => section.lines);
  const headline = batchHeadline(document.changes, sections.length);
  const hasClosed = needsBelowNote(lines);
  const newest = lines.flatMap((line) => line.events.map((e) => e.detectedAt)).sort().at(-1);
  const detected = newest ? ` \xB7 detected ${formatInstant(newest, options.timezone, { year: true })}` : "";
  const footer = `shortwatch \xB7 ${issuerCount(sections.length)}${detected} (${options.timezone})`;
  const text = [headline, ...sections.flatMap(sectionText), ...textEnding(hasClosed, footer)].join("\n");
  const body = [
    ...sections.flatMap(sectionHtml),
    ...hasClosed ? [htmlParagraph(escapeHtml(CLOSED_NOTE), true)] : []
  ].join("\n");
  const subject = toSubject(`${headline}: ${linesSummary(lines)}`);
  return { subject, text, html: htmlLayout({ title: headline, body, footer }) };
}
export {
  batchEmail
};
