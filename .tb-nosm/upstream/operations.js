import { wellFormed } from "../text/well-formed.js";
function encodePathSegment(segment) {
  const encoded = encodeURIComponent(wellFormed(segment));
  return /^\.+$/.test(encoded) ? encoded.replaceAll(".", "%2E") : encoded;
}
function issuersPath() {
  return "/issuers";
}
function positionsPath(issuerId, status) {
  return `/issuers/${encodePathSegment(issuerId)}/positions?status=${status}`;
}
export {
  encodePathSegment,
  issuersPath,
  positionsPath
};
