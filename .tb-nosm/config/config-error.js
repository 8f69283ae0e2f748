function formatIssue(source, issue) {
  const at = issue.line === void 0 ? "" : `${source}:${issue.line}: `;
  const text = `${at}${issue.path ? `${issue.path}: ` : ""}${issue.message}`;
  const [first, ...rest] = text.split("\n");
  return [first, ...rest.map((line) => line === "" ? "" : `    ${line}`)].join("\n");
}
const ENV_HINT = "shortwatch reads variables from its own environment only: a .env file is read by docker compose, not by shortwatch (in a shell: set -a; . ./.env; set +a).";
class ConfigError extends Error {
  constructor(source, issues) {
    const hint = issues.some((i) => i.variable !== void 0) ? `
${ENV_HINT}` : "";
    super(
      `invalid config ${source}:
${issues.map((i) => `  - ${formatIssue(source, i)}`).join("\n")}${hint}`
    );
    this.source = source;
    this.issues = issues;
  }
  source;
  issues;
  name = "ConfigError";
}
function isConfigError(error) {
  return error instanceof ConfigError;
}
function formatKeyPath(path) {
  return path.map(
    (part, index) => typeof part === "number" ? `[${part}]` : `${index === 0 ? "" : "."}${String(part)}`
  ).join("");
}
export {
  ConfigError,
  ENV_HINT,
  formatIssue,
  formatKeyPath,
  isConfigError
};
