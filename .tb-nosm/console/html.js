class SafeHtml {
  constructor(value) {
    this.value = value;
  }
  value;
  toString() {
    return this.value;
  }
}
const ESCAPES = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;"
};
function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}
function render(value) {
  if (value instanceof SafeHtml) return value.value;
  if (value === null || value === void 0 || value === false || value === true) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "string") return escapeHtml(value);
  let out = "";
  for (const item of value) out += render(item);
  return out;
}
function html(strings, ...values) {
  let out = strings[0] ?? "";
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? "");
  return new SafeHtml(out);
}
function trusted(markup) {
  return new SafeHtml(markup);
}
export {
  SafeHtml,
  escapeHtml,
  html,
  trusted
};
