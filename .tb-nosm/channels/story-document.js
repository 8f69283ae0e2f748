import { digestIssuers, newestFirst, topMovers } from "./digest-facts.js";
import {
  disclosedOn,
  sourceNote,
  storyLines,
  totalNote,
  totalWithHidden
} from "./event-story.js";
import { displayMessage } from "./format.js";
function datesDiffer(lines) {
  return new Set(lines.map((line) => line.date ?? "")).size > 1;
}
function issuerSection(issuer, events, key) {
  const lines = storyLines(events);
  const dated = datesDiffer(lines);
  const section = { key, issuer, events, lines, dated };
  const source = sourceNote(events);
  if (source) section.source = source;
  const total = totalWithHidden(events);
  if (total) {
    section.total = total;
    const note = totalNote(lines);
    if (note) section.totalNote = note;
  }
  const disclosed = dated ? void 0 : disclosedOn(lines);
  if (disclosed) section.disclosed = disclosed;
  const newest = events.map((event) => event.detectedAt).sort().at(-1);
  if (newest) section.detectedAt = newest;
  return section;
}
function totalWithNoteOf(section) {
  const { total, totalNote: note } = section;
  return note ? `${total}; ${note.charAt(0).toLowerCase()}${note.slice(1, -1)}` : total;
}
function digestDocument(message) {
  const events = [...message.events].sort(newestFirst);
  const movers = topMovers(events).flatMap((event) => {
    const [line] = storyLines([event]);
    return line ? [{ event, line }] : [];
  });
  return {
    type: "digest",
    period: message.period,
    events,
    movers,
    // The digest's sections keep the issuer id as key, as its headings always have.
    sections: digestIssuers(events).map(
      ({ issuer, events: group }) => issuerSection(issuer, group, issuer.id)
    ),
    issuers: new Set(events.map((event) => event.issuer.id)).size
  };
}
function storyDocumentOf(message) {
  switch (message.type) {
    case "events":
      return { type: "events", section: issuerSection(message.issuer, message.events, message.issuer.id) };
    case "batch": {
      const groups = message.groups.filter((group) => group.events.length > 0);
      return {
        type: "batch",
        // The index keeps two groups of one issuer apart, should a caller ever pass them.
        sections: groups.map(
          (group, index) => issuerSection(group.issuer, group.events, `${index}:${group.issuer.id}`)
        ),
        changes: groups.reduce((sum, group) => sum + group.events.length, 0)
      };
    }
    case "digest":
      return digestDocument(message);
    case "notice":
      return { type: "notice", notice: message };
    case "test":
      return { type: "test", test: message };
  }
}
function storyDocument(message) {
  return storyDocumentOf(displayMessage(message));
}
export {
  issuerSection,
  storyDocument,
  storyDocumentOf,
  totalWithNoteOf
};
