import { ImplausibleAnswerError } from "./poll-failure.js";
const PAGE_MARKERS = [
  "next",
  "next_page",
  "has_more",
  "hasMore",
  "total",
  "total_count",
  "page",
  "pages",
  "cursor"
];
function checkAnswer(response, asked, previous) {
  if (response.issuer.svc_issuer_id !== asked.issuerId) {
    throw new ImplausibleAnswerError(
      "wrong-issuer",
      `asked for ${asked.issuerId}, the answer is for ${response.issuer.svc_issuer_id}`
    );
  }
  if (response.status !== "active") {
    throw new ImplausibleAnswerError(
      "status-echo",
      `asked for status=active, the answer says ${response.status}`
    );
  }
  const seen = previous?.upstreamUpdated;
  if (seen && response.last_updated !== null && Date.parse(response.last_updated) < Date.parse(seen)) {
    throw new ImplausibleAnswerError(
      "backwards",
      `the answer's last_updated ${response.last_updated} is older than ${seen}, which the snapshot holds`
    );
  }
  const extra = response.extra ?? {};
  if (isPartial(extra, response.data.length)) {
    const shown = PAGE_MARKERS.filter((key) => key in extra).join(", ");
    throw new ImplausibleAnswerError("partial", `the answer looks like one page of several (${shown})`);
  }
  return Object.keys(extra);
}
function isPartial(extra, rows) {
  const { next, next_page, has_more, hasMore, total, total_count, cursor } = extra;
  if (has_more === true || hasMore === true) return true;
  if (isSet(next) || isSet(next_page) || isSet(cursor)) return true;
  const count = typeof total === "number" ? total : typeof total_count === "number" ? total_count : void 0;
  return count !== void 0 && count > rows;
}
const isSet = (value) => value !== void 0 && value !== null && value !== "" && value !== false;
export {
  checkAnswer
};
