import { lateFiling } from "../positions/late-filing.js";
import { round4 } from "../positions/round.js";
import { seenLateByDays } from "../positions/seen-late.js";
import { crossesThreshold, DISCLOSURE_THRESHOLD, isAbove } from "../positions/threshold-story.js";
import { formatDelta, formatPercent, KIND_VERB } from "./format.js";
import { formatInstant } from "./time.js";
const THRESHOLD = `${DISCLOSURE_THRESHOLD}%`;
const FELL_BELOW = `fell below the ${THRESHOLD} disclosure threshold`;
function storyOf(event) {
  if (event.aggregate) return void 0;
  if (event.story) return event.story;
  if (isAbove(event.previous) && !isAbove(event.current)) return { kind: "fell-below" };
  if (event.kind === "closed") return { kind: "below-confirmed", fellBelowOn: event.previous?.date ?? "?" };
  return void 0;
}
function listedAfter(event) {
  if (event.current) return event.current;
  return event.final && event.final.value < DISCLOSURE_THRESHOLD ? event.final : null;
}
function days(count) {
  return `${count} ${count === 1 ? "day" : "days"}`;
}
function seenAt(event) {
  return `${formatInstant(event.detectedAt, "UTC", { year: true })} UTC`;
}
function singleLine(event) {
  const line = storyLine(event);
  const late = lateFiling(event.current);
  const clauses = [];
  if (late !== void 0)
    clauses.push(
      `filed late (position of ${late.date} reported ${late.reportedOn}, ${days(late.days)} later)`
    );
  const dated = late?.reportedOn ?? line.date;
  if (dated !== void 0 && seenLateByDays(dated, event.detectedAt) !== void 0)
    clauses.push(
      late ? `first seen ${seenAt(event)}` : `disclosed for ${dated}, first seen ${seenAt(event)}`
    );
  if (clauses.length === 0) return line;
  return { ...line, what: [line.what, ...clauses].join(", "), phrase: true };
}
function storyLine(event) {
  if (event.aggregate) return aggregateLine(event, event.aggregate);
  const story = storyOf(event);
  const base = { holder: event.holder, crossed: event.thresholdsCrossed, events: [event] };
  switch (story?.kind) {
    case "fell-below":
      return { ...base, look: event.kind, story: story.kind, phrase: true, ...fellBelowLine(event) };
    case "below-confirmed":
      return {
        ...base,
        look: event.kind,
        story: story.kind,
        what: `confirmed: no longer listed, as it ${FELL_BELOW} on ${story.fellBelowOn}`,
        phrase: true,
        values: `${formatPercent(event.previous?.value ?? 0)} \u2192 ${stop(event)}`
      };
    case "back-above":
      return {
        ...base,
        look: event.kind,
        story: story.kind,
        what: `back above ${THRESHOLD} after ${days(story.daysBelow)}`,
        phrase: true,
        ...currentValues(event)
      };
    case void 0:
      break;
  }
  if (!event.previous)
    return { ...base, look: "opened", what: KIND_VERB.opened, phrase: false, ...currentValues(event) };
  return { ...base, look: event.kind, what: KIND_VERB[event.kind], phrase: false, ...currentValues(event) };
}
function change(from, to) {
  return {
    values: `${formatPercent(from.value)} \u2192 ${formatPercent(to.value)}`,
    delta: formatDelta(to.value - from.value),
    date: to.date
  };
}
function currentValues(event) {
  const current = event.current ?? { value: 0, date: "?" };
  if (event.previous) return change(event.previous, current);
  return { values: formatPercent(current.value), delta: formatDelta(event.delta), date: current.date };
}
function fellBelowLine(event) {
  const after = listedAfter(event);
  const what = after ? `${FELL_BELOW} (${formatPercent(after.value)}), no longer public` : `${FELL_BELOW}, no longer public`;
  const from = event.previous ?? { value: 0, date: "?" };
  if (event.current) return { what, ...change(from, event.current) };
  if (!after) return { what, values: `${formatPercent(from.value)} \u2192 ${stop(event)}` };
  return {
    what,
    values: `${formatPercent(from.value)} \u2192 ${stop(event)}`,
    delta: formatDelta(after.value - from.value),
    date: after.date
  };
}
function aggregateLine(event, facts) {
  const base = { holder: event.holder, look: event.kind, crossed: event.thresholdsCrossed, events: [event] };
  const from = event.previous ?? { value: 0, date: "?" };
  const to = event.current ?? { value: 0, date: "?" };
  const change2 = {
    values: `${formatPercent(from.value)} \u2192 ${formatPercent(to.value)}`,
    delta: formatDelta(to.value - from.value),
    date: to.date
  };
  switch (facts.kind) {
    case "aggregate-entered":
      return { ...base, what: "published", phrase: false, values: formatPercent(to.value), date: to.date };
    case "aggregate-ended":
      return {
        ...base,
        what: "no longer published",
        phrase: true,
        values: `${formatPercent(from.value)} \u2192 under ${formatPercent(facts.thresholdPercent ?? 0)}`,
        date: from.date
      };
    case "aggregate-changed":
    case "aggregate-crossed":
      return { ...base, what: KIND_VERB[event.kind], phrase: false, ...change2 };
    case "aggregate-revised":
      return { ...base, what: "revised", phrase: false, ...change2 };
    case "below-threshold-moved":
      return { ...base, what: "moved", phrase: false, ...change2 };
    case "named-holders-ended": {
      const count = facts.namedHolders ?? 0;
      return {
        ...base,
        // A register's event names its source; the API's (no source) is the upstream, not a register.
        what: `no longer published by the ${event.source === void 0 ? "upstream" : "register"}: a change of what it publishes, not ${count} closed ${count === 1 ? "position" : "positions"}`,
        phrase: true,
        values: `last named sum ${formatPercent(from.value)}`,
        date: to.date
      };
    }
    case "scope-added":
      return { ...base, what: "added the share", phrase: false, values: "(now in scope)", date: to.date };
    case "scope-removed":
      return {
        ...base,
        what: "removed the share",
        phrase: false,
        values: "(no longer in scope)",
        date: to.date
      };
  }
}
function aggregateHeadline(line, issuer) {
  const facts = line.events.at(-1)?.aggregate;
  if (facts?.kind === "scope-added") return `${issuer} added to the ${line.holder}`;
  if (facts?.kind === "scope-removed") return `${issuer} removed from the ${line.holder}`;
  return `${line.holder} ${line.what} in ${issuer}: ${line.values}`;
}
function stop(event) {
  if (event.current) return formatPercent(event.current.value);
  const after = listedAfter(event);
  const repeats = after !== null && event.previous !== null && round4(after.value) === round4(event.previous.value);
  return after && !repeats ? `off the list at ${formatPercent(after.value)}` : "off the list";
}
function sequenceLine(events) {
  const first = events[0];
  const last = events.at(-1);
  if (!first || !last) throw new Error("a sequence needs events");
  const start = first.previous ? formatPercent(first.previous.value) : "not listed";
  const crossings = events.filter(crossesThreshold).length;
  const end = listedAfter(last);
  const what = crossings < 2 ? `${events.length} changes` : crossings === events.length ? `crossed ${THRESHOLD} ${crossings} times` : `${events.length} changes, ${crossings} across ${THRESHOLD}`;
  const from = first.previous;
  const crossed = [...new Set(events.flatMap((event) => event.thresholdsCrossed))].sort((a, b) => a - b);
  return {
    holder: last.holder,
    look: "sequence",
    what,
    phrase: true,
    values: [start, ...events.map(stop)].join(" \u2192 "),
    // From not listed, the change is the whole value now listed, as the issuer total counts it.
    ...end ? { delta: formatDelta(round4(end.value - (from?.value ?? 0))) } : {},
    ...end ? { date: end.date } : {},
    crossed,
    events: [...events]
  };
}
function storyLines(events) {
  const byHolder = /* @__PURE__ */ new Map();
  for (const event of events) {
    const key = `${event.source ?? ""}\0${event.issuer.id}\0${event.holderKey}`;
    const list = byHolder.get(key);
    if (list) list.push(event);
    else byHolder.set(key, [event]);
  }
  return [...byHolder.values()].map((list) => {
    const [only] = list;
    if (list.length === 1 && only) return singleLine(only);
    return sequenceLine([...list].sort((a, b) => a.detectedAt.localeCompare(b.detectedAt)));
  });
}
function thresholdList(thresholds) {
  return thresholds.map((t) => `${round4(t)}%`).join(", ");
}
function crossedText(line) {
  if (line.crossed.length === 0) return void 0;
  return `crossed ${thresholdList(line.crossed)}`;
}
function storySentence(line) {
  const delta = line.delta ? ` (${line.delta})` : "";
  const date = line.date ? ` on ${line.date}` : "";
  return `${line.holder} ${line.what}${line.phrase ? ":" : ""} ${line.values}${delta}${date}`;
}
function hiddenByFilters(events) {
  const perPoll = /* @__PURE__ */ new Map();
  for (const event of events) perPoll.set(event.detectedAt, event.hidden ?? { count: 0, delta: 0 });
  let count = 0;
  let delta = 0;
  for (const hidden of perPoll.values()) {
    count += hidden.count;
    delta += hidden.delta;
  }
  return { count, delta: round4(delta) };
}
function totalWithHidden(all) {
  const events = all.filter((event) => !event.aggregate);
  const byTime = [...events].sort((a, b) => a.detectedAt.localeCompare(b.detectedAt));
  const oldest = byTime[0];
  const newest = byTime.at(-1);
  if (!oldest || !newest) return void 0;
  const before = oldest.issuerTotal.before;
  const after = newest.issuerTotal.after;
  const moved = round4(after - before);
  const shown = round4(events.reduce((sum, event) => sum + event.delta, 0));
  const hidden = hiddenByFilters(events);
  const told = round4(moved - shown - hidden.delta);
  const parts = [];
  if (hidden.count > 0)
    parts.push(
      `${formatDelta(hidden.delta)} in ${hidden.count === 1 ? "1 change" : `${hidden.count} changes`} not shown here`
    );
  if (told !== 0) parts.push(`${formatDelta(told)} told earlier`);
  const head = `${formatPercent(before)} \u2192 ${formatPercent(after)} (${formatDelta(moved)}`;
  return parts.length === 0 ? `${head})` : `${head}, of which ${parts.join(" and ")})`;
}
function leftWith(line) {
  const last = line.events.at(-1);
  if (!last || last.current || !last.previous || last.aggregate) return void 0;
  const end = listedAfter(last);
  const start = line.events[0]?.previous?.value ?? 0;
  const shown = end ? round4(end.value - start) : void 0;
  const counted = round4(line.events.reduce((sum, event) => sum + event.delta, 0));
  return shown === counted ? void 0 : last.previous.value;
}
function totalNote(lines) {
  const left = lines.flatMap((line) => {
    const value = leftWith(line);
    return value === void 0 ? [] : [`${line.holder}'s last listed ${formatPercent(value)}`];
  });
  if (left.length === 0) return void 0;
  const them = left.length === 1 ? "it" : "them";
  return `The total counts listed positions only: ${left.join(" and ")} left the list with ${them}.`;
}
function disclosedOn(lines) {
  const dates = [...new Set(lines.flatMap((line) => line.date ? [line.date] : []))].sort();
  const first = dates[0];
  const last = dates.at(-1);
  if (!first || !last) return void 0;
  return first === last ? first : `${first} to ${last}`;
}
function issuerGroupKey(event) {
  return `${event.source ?? ""}\0${event.issuer.id}`;
}
function sourceNote(events) {
  const sources = [...new Set(events.flatMap((event) => event.source ? [event.source] : []))].sort();
  if (sources.length === 0) return void 0;
  return `${sources.length === 1 ? "register" : "registers"} ${sources.join(", ")}`;
}
export {
  FELL_BELOW,
  aggregateHeadline,
  crossedText,
  disclosedOn,
  issuerGroupKey,
  sourceNote,
  storyLines,
  storyOf,
  storySentence,
  thresholdList,
  totalNote,
  totalWithHidden
};
