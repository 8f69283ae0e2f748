import {
  INVALID_STATUS,
  ISSUER_NOT_FOUND,
  MALFORMED_PATH,
  METHOD_NOT_ALLOWED,
  ROUTE_NOT_FOUND
} from "./error-bodies.js";
function requestedStatus(query) {
  const given = query.getAll("status");
  const status = given.length === 0 ? "active" : given.length === 1 ? given[0] : void 0;
  return status === "active" || status === "all" ? status : void 0;
}
function positionsBody(scenario, issuerId, status) {
  const issuer = scenario.issuer(issuerId);
  const data = status === "active" ? scenario.active(issuerId) : scenario.all(issuerId);
  if (!issuer || !data) return void 0;
  return { issuer, status, data, last_updated: scenario.lastUpdated() };
}
function positions(scenario, issuerId, query) {
  const status = requestedStatus(query);
  if (!status) return { status: 400, body: INVALID_STATUS };
  const body = positionsBody(scenario, issuerId, status);
  return body ? { status: 200, body } : { status: 404, body: ISSUER_NOT_FOUND };
}
function answer(scenario, route, method, query) {
  if (route.operation === "other") {
    return route.malformed ? { status: 400, body: MALFORMED_PATH } : { status: 404, body: ROUTE_NOT_FOUND };
  }
  if (method !== "GET") return { status: 405, body: METHOD_NOT_ALLOWED, headers: { allow: "GET" } };
  if (route.operation === "issuers") {
    return { status: 200, body: { data: scenario.issuers(), last_updated: scenario.lastUpdated() } };
  }
  return positions(scenario, route.issuerId, query);
}
export {
  answer,
  positionsBody,
  requestedStatus
};
