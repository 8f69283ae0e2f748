import { DISCLOSURE_THRESHOLD } from "../../positions/threshold-story.js";
import {
  aggregateHeadline,
  FELL_BELOW,
  storyLines,
  storyOf,
  storySentence,
  thresholdList
} from "../event-story.js";
import { formatDelta, formatPercent, KIND_VERB } from "../format.js";
import { EMPTY_CELL, escapeHtml } from "./html.js";
import { clipChars, MAX_SUBJECT_NAME_CHARS, oneLine } from "./text.js";
const THRESHOLD = `${DISCLOSURE_THRESHOLD}%`;
const EVENT_COLUMNS = [
  { header: "Holder", role: "name" },
  { header: "Change", role: "word" },
  { header: "Old \u2192 new", role: "value" },
  { header: "\u0394", role: "delta" },
  { header: "Date", role: "date" },
  { header: "Crossed", role: "value" }
];
function oneLineEvent(event) {
  return {
    ...event,
    holder: oneLine(event.holder),
    issuer: { ...event.issuer, name: oneLine(event.issuer.name) }
  };
}
function subjectEvent(event) {
  return {
    ...event,
    holder: clipChars(event.holder, MAX_SUBJECT_NAME_CHARS),
    issuer: { ...event.issuer, name: clipChars(event.issuer.name, MAX_SUBJECT_NAME_CHARS) }
  };
}
function eventHeadline(event) {
  const { holder, issuer } = event;
  const [line] = storyLines([event]);
  if (event.aggregate && line) return aggregateHeadline(line, issuer.name);
  switch (line?.story) {
    case "fell-below":
      return `${holder}'s short in ${issuer.name} ${line.what}`;
    case "back-above":
      return `${holder} is ${line.what} in ${issuer.name} (${formatPercent(event.current?.value ?? 0)})`;
    case "below-confirmed": {
      const story = storyOf(event);
      const on = story?.kind === "below-confirmed" ? story.fellBelowOn : "?";
      return `${holder}'s short in ${issuer.name} is no longer listed, as it ${FELL_BELOW} on ${on}`;
    }
    case void 0:
      break;
  }
  switch (event.kind) {
    case "opened":
      return `${holder} opened a ${formatPercent(event.current?.value ?? 0)} short in ${issuer.name}`;
    case "increased":
    case "decreased":
      return `${holder} ${KIND_VERB[event.kind]} its short in ${issuer.name} to ${formatPercent(event.current?.value ?? 0)} (${formatDelta(event.delta)})`;
    case "closed":
      return `${holder}'s short in ${issuer.name} ${FELL_BELOW}`;
  }
}
function storyTextLines(line) {
  const lines = [`* ${storySentence(line)}`];
  if (line.crossed.length > 0) lines.push(`  Thresholds crossed: ${thresholdList(line.crossed)}`);
  return lines;
}
function storyRow(line) {
  const [holder = "", what = "", delta = "", date = "", crossed = ""] = [
    line.holder,
    line.what,
    line.delta ?? EMPTY_CELL,
    line.date ?? EMPTY_CELL,
    line.crossed.length > 0 ? thresholdList(line.crossed) : EMPTY_CELL
  ].map(escapeHtml);
  return [holder, what, valuesHtml(line.values), delta, date, crossed];
}
const ONE_LINE_STEPS = 4;
function valuesHtml(values) {
  const steps = values.split(" \u2192 ").map(escapeHtml);
  if (steps.length <= ONE_LINE_STEPS) return escapeHtml(values);
  const [first = "", ...rest] = steps;
  const kept = (text) => `<span style="white-space:nowrap">${text}</span>`;
  return `<span style="white-space:normal">${[kept(first), ...rest.map((step) => kept(`\u2192 ${step}`))].join(" ")}</span>`;
}
function needsBelowNote(lines) {
  return lines.some(
    (line) => line.story === "fell-below" || line.look === "closed" || line.look === "sequence"
  );
}
const CLOSED_NOTE = `Below ${THRESHOLD}: a position under the ${THRESHOLD} public disclosure threshold is no longer published; it is not known to be covered.`;
function textEnding(hasClosed, footer) {
  return [...hasClosed ? ["", CLOSED_NOTE] : [], "", "--", footer, ""];
}
export {
  CLOSED_NOTE,
  EVENT_COLUMNS,
  eventHeadline,
  needsBelowNote,
  oneLineEvent,
  storyRow,
  storyTextLines,
  subjectEvent,
  textEnding
};
