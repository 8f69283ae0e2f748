import { DISCLOSURE_THRESHOLD } from "../../positions/threshold-story.js";
import { aggregateHeadline, storyLines, storyOf } from "../event-story.js";
import { formatDelta, formatPercent } from "../format.js";
import { clipChars, countChanges, MAX_SUBJECT_NAME_CHARS } from "./text.js";
const THRESHOLD = `${DISCLOSURE_THRESHOLD}%`;
const TALLY = [
  ["opened", "opening", "openings"],
  ["increased", "rise", "rises"],
  ["decreased", "cut", "cuts"],
  ["fell-below", `fall below ${THRESHOLD}`, `falls below ${THRESHOLD}`],
  ["back-above", `return above ${THRESHOLD}`, `returns above ${THRESHOLD}`],
  ["below-confirmed", "close confirmed", "closes confirmed"]
];
function tallyOf(line) {
  if (line.story) return line.story;
  return line.look === "closed" ? "fell-below" : line.look;
}
function linesSummary(lines) {
  const tallies = lines.map(tallyOf);
  const parts = TALLY.flatMap(([key, one, many]) => {
    const count = tallies.filter((t) => t === key).length;
    return count === 0 ? [] : [`${count} ${count === 1 ? one : many}`];
  });
  const sequences = lines.filter((line) => line.look === "sequence");
  const [only] = sequences;
  if (sequences.length === 1 && only) parts.push(`1 holder with ${countChanges(only.events.length)}`);
  if (sequences.length > 1) parts.push(`${sequences.length} holders with several changes`);
  return parts.join(", ");
}
function lineSubject(line, issuer) {
  const event = line.events.at(-1);
  const now = formatPercent(event?.current?.value ?? 0);
  if (event?.aggregate) return aggregateHeadline(line, issuer);
  switch (tallyOf(line)) {
    case "opened":
      return `${line.holder} opened ${now} in ${issuer}`;
    case "increased":
      return `${line.holder} raised ${issuer} to ${now} (${formatDelta(event?.delta ?? 0)})`;
    case "decreased":
      return `${line.holder} cut ${issuer} to ${now} (${formatDelta(event?.delta ?? 0)})`;
    case "fell-below":
      return `${line.holder} fell below ${THRESHOLD} in ${issuer} (${line.values})`;
    case "back-above":
      return `${line.holder} back above ${THRESHOLD} in ${issuer} at ${now}`;
    case "below-confirmed": {
      const story = event ? storyOf(event) : void 0;
      const since = story?.kind === "below-confirmed" ? ` since ${story.fellBelowOn}` : "";
      return `${line.holder} confirmed off the list in ${issuer} (below ${THRESHOLD}${since})`;
    }
    case "sequence":
      return `${line.holder}: ${line.what} in ${issuer} (${line.values})`;
  }
}
function eventsSubject(issuerName, events) {
  const issuer = clipChars(issuerName, MAX_SUBJECT_NAME_CHARS);
  const lines = storyLines(events).map((line) => ({
    ...line,
    holder: clipChars(line.holder, MAX_SUBJECT_NAME_CHARS)
  }));
  const [only] = lines;
  if (lines.length === 1 && only) return lineSubject(only, issuer);
  return `${countChanges(events.length)} in ${issuer}: ${linesSummary(lines)}`;
}
export {
  eventsSubject,
  linesSummary
};
