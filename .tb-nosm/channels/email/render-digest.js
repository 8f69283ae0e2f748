import { shortPeriod } from "../digest-facts.js";
import { storySentence } from "../event-story.js";
import {
  storyDocumentOf,
  totalWithNoteOf
} from "../story-document.js";
import { formatPeriod } from "../time.js";
import {
  CLOSED_NOTE,
  EVENT_COLUMNS,
  needsBelowNote,
  oneLineEvent,
  storyRow,
  storyTextLines,
  textEnding
} from "./event-facts.js";
import { escapeHtml, htmlHeading, htmlLayout, htmlList, htmlParagraph, htmlTable } from "./html.js";
import { linesSummary } from "./subject.js";
import { countChanges, toSubject } from "./text.js";
function sectionName(section) {
  return section.source ? `${section.issuer.name} (${section.source})` : section.issuer.name;
}
function moverLine(mover) {
  return `${mover.event.issuer.name}: ${storySentence(mover.line)}`;
}
function renderDigest(message) {
  const document = storyDocumentOf({ ...message, events: message.events.map(oneLineEvent) });
  if (document.type !== "digest") throw new Error("a digest message makes a digest document");
  return digestEmail(document);
}
function digestEmail(document) {
  const { events } = document;
  const count = events.length === 0 ? "no changes" : countChanges(events.length);
  const kinds = events.length === 0 ? "" : ` (${linesSummary(document.sections.flatMap((g) => g.lines))})`;
  const subject = toSubject(`Short positions digest: ${count}${kinds}, ${shortPeriod(document.period)}`);
  const title = `Short positions digest: ${count}`;
  const periodLine = `Period: ${formatPeriod(document.period, { year: true })}`;
  const footer = `shortwatch digest \xB7 ${formatPeriod(document.period, { year: true })}`;
  if (events.length === 0) {
    const empty = "No changes in this period.";
    const text2 = [title, periodLine, "", empty, "", "--", footer, ""].join("\n");
    const body2 = [htmlParagraph(escapeHtml(periodLine), true), htmlParagraph(empty)].join("\n");
    return { subject, text: text2, html: htmlLayout({ title, body: body2, footer }) };
  }
  const movers = document.movers.map(moverLine);
  const groups = document.sections;
  const hasClosed = needsBelowNote(groups.flatMap((g) => g.lines));
  const totalOf = (g) => {
    const total = totalWithNoteOf(g);
    return total ? `total disclosed short ${total}` : void 0;
  };
  const totalHtml = (g) => {
    const total = totalWithNoteOf(g);
    return total ? [htmlParagraph(escapeHtml(`Total disclosed short ${total}`), true)] : [];
  };
  const text = [
    title,
    periodLine,
    ...movers.length > 0 ? ["", "Top movers", ...movers.map((line) => `* ${line}`)] : [],
    ...groups.flatMap((g) => [
      "",
      [sectionName(g), totalOf(g)].filter(Boolean).join(": "),
      ...g.lines.flatMap(storyTextLines)
    ]),
    ...textEnding(hasClosed, footer)
  ].join("\n");
  const body = [
    htmlParagraph(escapeHtml(periodLine), true),
    ...movers.length > 0 ? [htmlHeading("Top movers"), htmlList(movers.map(escapeHtml))] : [],
    ...groups.flatMap((g) => [
      htmlHeading(escapeHtml(sectionName(g))),
      ...totalHtml(g),
      htmlTable(EVENT_COLUMNS, g.lines.map(storyRow))
    ]),
    ...hasClosed ? [htmlParagraph(escapeHtml(CLOSED_NOTE), true)] : []
  ].join("\n");
  return { subject, text, html: htmlLayout({ title, body, footer }) };
}
export {
  digestEmail,
  renderDigest
};
