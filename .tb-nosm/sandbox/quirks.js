import { DAY_MS, HOUR_MS } from "../time/units.js";
import { positionsBody, requestedStatus } from "./answers.js";
import { schemaBreaking } from "./schema-breaking.js";
const QUIRKS = [
  "null-last-updated",
  "lagging-last-updated",
  "backwards-last-updated",
  "wrong-issuer",
  "status-all",
  "paginated",
  "vanish",
  "strings-for-numbers"
];
function earlier(lastUpdated, ms) {
  return lastUpdated === null ? null : new Date(Date.parse(lastUpdated) - ms).toISOString();
}
function nextIssuerId(scenario, issuerId) {
  const ids = scenario.issuers().map((issuer) => issuer.svc_issuer_id);
  return ids[(ids.indexOf(issuerId) + 1) % ids.length] ?? issuerId;
}
function paginated(body, request) {
  const total = body.data.length;
  const firstPage = Math.ceil(total / 2);
  if (request.query.get("page") === "2") {
    return { ...body, data: body.data.slice(firstPage), total, has_more: false };
  }
  const next = `${request.url}?${new URLSearchParams({ status: body.status, page: "2" })}`;
  return { ...body, data: body.data.slice(0, firstPage), next, total, has_more: true };
}
function reshape(quirk, body, request) {
  const { scenario, issuerId } = request;
  switch (quirk) {
    case "null-last-updated":
      return { ...body, last_updated: null };
    case "lagging-last-updated":
      return { ...body, last_updated: earlier(body.last_updated, HOUR_MS) };
    case "backwards-last-updated":
      return {
        ...body,
        data: scenario.previous(issuerId, body.status) ?? body.data,
        last_updated: earlier(body.last_updated, DAY_MS)
      };
    case "wrong-issuer":
      return positionsBody(scenario, nextIssuerId(scenario, issuerId), body.status) ?? body;
    case "status-all":
      return { ...body, status: "all", data: scenario.all(issuerId) ?? body.data };
    case "paginated":
      return paginated(body, request);
    case "vanish":
      return { ...body, data: [] };
    case "strings-for-numbers":
      return schemaBreaking({ status: 200, body }, "positions");
  }
}
function quirkAnswer(quirk, normal, request) {
  if (normal.status !== 200) return normal;
  const status = requestedStatus(request.query);
  const body = status && positionsBody(request.scenario, request.issuerId, status);
  if (!body) return normal;
  return { ...normal, body: reshape(quirk, body, request) };
}
export {
  QUIRKS,
  quirkAnswer
};
