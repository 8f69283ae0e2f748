const REQUIRED_SCOPES = ["chat:write"];
const DIRECT_SCOPES = ["users:read", "users:read.email", "im:write"];
function missingScopes(header, required = REQUIRED_SCOPES) {
  const granted = new Set((header ?? "").split(",").map((scope) => scope.trim()));
  return required.filter((scope) => !granted.has(scope));
}
export {
  DIRECT_SCOPES,
  REQUIRED_SCOPES,
  missingScopes
};
