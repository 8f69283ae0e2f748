import { shortPeriod } from "./digest-facts.js";
import { crossedText, storySentence } from "./event-story.js";
import { clipText } from "./format.js";
import {
  storyDocument,
  storyDocumentOf,
  totalWithNoteOf
} from "./story-document.js";
import { formatInstant } from "./time.js";
function storyMarkup(line, withDate, markup) {
  const what = markup.escape(line.phrase ? `${line.what} \xB7` : line.what);
  const delta = line.delta ? ` (${line.delta})` : "";
  const date = withDate && line.date ? ` \xB7 ${line.date}` : "";
  const crossed = crossedText(line);
  const rest = markup.escape(`${delta}${date}${crossed ? ` \xB7 ${crossed}` : ""}`);
  return `${markup.emoji[line.look]} ${markup.bold(markup.name(line.holder))} ${what} ${boldLast(line, markup)}${rest}`;
}
function boldLast(line, markup) {
  const cut = line.values.lastIndexOf(" \u2192 ");
  const head = cut < 0 ? "" : line.values.slice(0, cut + 3);
  const last = line.values.slice(head.length);
  if (!line.date || !/^\d/.test(last)) return line.values;
  return `${head}${markup.bold(last)}`;
}
function storyText(line, markup) {
  const sentence = markup.escape(storySentence({ ...line, holder: markup.shortName(line.holder) }));
  const crossed = crossedText(line);
  return crossed ? `${sentence}; ${crossed}` : sentence;
}
function changeCount(count) {
  return `${count} short position ${count === 1 ? "change" : "changes"}`;
}
function issuerCount(count) {
  return `${count} ${count === 1 ? "issuer" : "issuers"}`;
}
function issuerHeading(section, markup) {
  const { issuer, source, disclosed } = section;
  const total = totalWithNoteOf(section);
  const parts = [`${markup.bold(markup.name(issuer.name || issuer.id))} (${markup.name(issuer.id)})`];
  if (source) parts.push(markup.escape(source));
  if (total) parts.push(`total ${markup.escape(total)}`);
  if (disclosed) parts.push(`disclosed ${markup.escape(disclosed)}`);
  return parts.join(" \xB7 ");
}
function sectionEntries(section, markup) {
  const group = { key: section.key, heading: issuerHeading(section, markup) };
  return section.lines.map((line) => ({ group, line: storyMarkup(line, section.dated, markup) }));
}
function eventsDraft(section, markup) {
  const { issuer, events, source, disclosed } = section;
  if (events.length === 0) return void 0;
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
      sentence: storyText(line, markup)
    })),
    context: context.join(" \xB7 ")
  };
}
function eventsStoryDraft(message, markup) {
  const document = storyDocumentOf(message);
  return document.type === "events" ? eventsDraft(document.section, markup) : void 0;
}
function batchDraft(document, markup, namesMax) {
  const { sections, changes } = document;
  if (sections.length === 0) return void 0;
  const issuers = issuerCount(sections.length);
  const names = sections.map((section) => section.issuer.name || section.issuer.id).join(", ");
  return {
    header: `Short position changes in ${issuers}`,
    // A summary, not one sentence per event: a batch exists to carry as much as one message can.
    headline: `${changeCount(changes)} in ${issuers}: ${markup.escape(clipText(names, namesMax))}`,
    entries: sections.flatMap((section) => sectionEntries(section, markup))
  };
}
function digestDraft(document, markup) {
  const { from, to, timezone } = document.period;
  const period = `${formatInstant(from, timezone, { year: true })} \u2192 ${formatInstant(to, timezone, { year: true })} (${markup.escape(timezone)})`;
  const summary = `${changeCount(document.events.length)} in ${issuerCount(document.issuers)}`;
  const movers = document.movers.map(
    ({ event, line }) => `${markup.emoji[line.look]} ${markup.name(event.issuer.name)}: ${storyText(line, markup)}`
  );
  const body = document.sections.flatMap((section) => sectionEntries(section, markup));
  return {
    header: "Short positions digest",
    headline: `Short positions digest, ${markup.escape(shortPeriod(document.period))}: ${summary}`,
    entries: [
      { line: `${markup.bold("Period:")} ${period} \xB7 ${summary}` },
      // One entry a line: a card shows each as its own text, where a lone newline may not break.
      ...movers.length > 0 ? [{ line: markup.bold("Top movers") }, ...movers.map((line) => ({ line }))] : [],
      ...body.length > 0 ? body : [{ line: "No short position changed in this period." }]
    ]
  };
}
function chatDraft(message, timezone, chat) {
  const document = storyDocument(message);
  switch (document.type) {
    case "events":
      return eventsDraft(document.section, chat.markup);
    case "batch":
      return batchDraft(document, chat.markup, chat.namesMax);
    case "digest":
      return digestDraft(document, chat.markup);
    case "notice":
      return chat.own.notice(document.notice);
    case "test":
      return chat.own.test(document.test, timezone);
  }
}
export {
  changeCount,
  chatDraft,
  eventsStoryDraft,
  storyMarkup,
  storyText
};
