function matchRoute(rawPath) {
  const segments = rawPath.split("/");
  if (segments.length === 2 && segments[1] === "issuers") return { operation: "issuers" };
  const encoded = segments[2];
  if (segments.length !== 4 || segments[1] !== "issuers" || segments[3] !== "positions" || encoded === void 0) {
    return { operation: "other" };
  }
  try {
    return { operation: "positions", issuerId: decodeURIComponent(encoded) };
  } catch {
    return { operation: "other", malformed: true };
  }
}
export {
  matchRoute
};
