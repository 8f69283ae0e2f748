import { SchemaError } from "./errors.js";
const MAX_ISSUES = 3;
const MAX_SUMMARY_CHARS = 300;
function parseBody(bytes, schema, context, redact) {
  let json;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new SchemaError("body is not valid JSON", context);
  }
  const result = schema.safeParse(json);
  if (!result.success) throw new SchemaError(redact(summarizeIssues(result.error.issues)), context);
  return result.data;
}
function summarizeIssues(issues) {
  const shown = issues.slice(0, MAX_ISSUES).map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
  const more = issues.length > MAX_ISSUES ? ` (+${issues.length - MAX_ISSUES} more)` : "";
  const text = `${shown.join("; ")}${more}`;
  return text.length > MAX_SUMMARY_CHARS ? `${text.slice(0, MAX_SUMMARY_CHARS - 1)}\u2026` : text;
}
function formatPath(path) {
  if (path.length === 0) return "(root)";
  return path.map(
    (part, index) => typeof part === "number" ? `[${part}]` : `${index === 0 ? "" : "."}${String(part)}`
  ).join("");
}
export {
  parseBody,
  summarizeIssues
};
