import { KIND_VERB } from "../../channels/format.js";
import { displayText, formatDelta, formatPercent, formatThreshold } from "../format.js";
import { html } from "../html.js";
import { paths } from "../paths.js";
const AGGREGATE_WORDS = {
  "aggregate-entered": "aggregate published",
  "aggregate-ended": "aggregate no longer published",
  "aggregate-changed": "aggregate moved",
  "aggregate-crossed": "aggregate crossed a level",
  "aggregate-revised": "aggregate revised",
  "below-threshold-moved": "below-threshold interest moved",
  "scope-added": "added to the scope list",
  "scope-removed": "removed from the scope list",
  "named-holders-ended": "named holders no longer published"
};
function kindText(event) {
  return event.aggregate ? AGGREGATE_WORDS[event.aggregate.kind] : KIND_VERB[event.kind];
}
function originTags(event) {
  if (event.source === void 0) return "";
  const threshold = event.aggregate?.thresholdPercent;
  return html` <span class="pill">register ${event.source}</span>${threshold === void 0 ? "" : html` <span class="pill">from ${formatThreshold(threshold)}</span>`}`;
}
function issuerLink(event) {
  return html`<a href="${paths.eventIssuer(event)}">${displayText(event.issuer.name)}</a>`;
}
function holderCell(event) {
  if (event.aggregate) return html`${displayText(event.holder)}`;
  return html`<a href="${paths.holder(event.holderKey)}">${displayText(event.holder)}</a>`;
}
function isScope(event) {
  const kind = event.aggregate?.kind;
  return kind === "scope-added" || kind === "scope-removed";
}
function fromText(event) {
  if (!event.previous || isScope(event)) return "-";
  return formatPercent(event.previous.value);
}
function toText(event) {
  const facts = event.aggregate;
  if (facts?.kind === "aggregate-ended") return `under ${formatPercent(facts.thresholdPercent ?? 0)}`;
  if (isScope(event)) return "-";
  if (facts?.kind === "named-holders-ended") return "not named";
  return event.current ? formatPercent(event.current.value) : "<0.5%";
}
function deltaText(event) {
  const ended = event.aggregate?.kind === "aggregate-ended" || event.aggregate?.kind === "named-holders-ended";
  if (event.kind === "closed" || ended || isScope(event)) return "-";
  return formatDelta(event.delta);
}
export {
  deltaText,
  fromText,
  holderCell,
  issuerLink,
  kindText,
  originTags,
  toText
};
