function escapeHtml(value) {
  return value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}
const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const PAGE_BG = "#f3f4f6";
const CARD_BG = "#ffffff";
const TEXT = "#1f2937";
const MUTED = "#4b5563";
const RULE = "#d1d5db";
const HEAD_BG = "#e5e7eb";
const DARK_CSS = [
  "@media (prefers-color-scheme: dark) {",
  `  .sw-page { background: #111827 !important; }`,
  `  .sw-card { background: #1f2937 !important; color: #f3f4f6 !important; }`,
  `  .sw-muted { color: #d1d5db !important; }`,
  `  .sw-th { background: #374151 !important; color: #f3f4f6 !important; }`,
  `  .sw-td, .sw-th { border-color: #4b5563 !important; }`,
  "}"
].join("\n");
const NOWRAP_ROLES = /* @__PURE__ */ new Set(["value", "delta", "date"]);
const NARROW_MAX_PX = 620;
const NARROW_CSS = [
  `@media (max-width: ${NARROW_MAX_PX}px) {`,
  "  .sw-outer { padding: 8px 4px !important; }",
  "  .sw-pad { padding-left: 12px !important; padding-right: 12px !important; }",
  "  .sw-table thead { display: none !important; }",
  "  .sw-table, .sw-table tbody, .sw-table tr { display: block !important; width: 100% !important; }",
  "  .sw-table tr { padding: 6px 0 !important; border-bottom: 1px solid #d1d5db; }",
  "  .sw-table td { display: inline-block !important; border: 0 !important; padding: 2px 12px 2px 0 !important; }",
  "  .sw-table td.sw-name { display: block !important; font-weight: 600; }",
  "  .sw-table td.sw-empty { display: none !important; }",
  "  .sw-table td[data-label]::before { content: attr(data-label); display: block; font-size: 11px; color: #6b7280; }",
  "}"
].join("\n");
function cellStyle(head, role) {
  const wrap = NOWRAP_ROLES.has(role) ? ";white-space:nowrap" : "";
  const base = `padding:6px 8px;border-bottom:1px solid ${RULE};text-align:left;vertical-align:top;font-size:13px${wrap}`;
  return head ? `${base};background:${HEAD_BG};color:${TEXT};font-weight:600` : base;
}
const EMPTY_CELL = "\u2014";
function dataCell(column, html) {
  const label = column.role === "name" ? "" : ` data-label="${escapeHtml(column.header)}"`;
  const empty = html === EMPTY_CELL ? " sw-empty" : "";
  return `<td class="sw-td sw-${column.role}${empty}"${label} style="${cellStyle(false, column.role)}">${html}</td>`;
}
function htmlTable(columns, rows) {
  const head = columns.map((c) => `<th class="sw-th" style="${cellStyle(true, c.role)}">${escapeHtml(c.header)}</th>`).join("");
  const body = rows.map((row) => `<tr>${columns.map((column, i) => dataCell(column, row[i] ?? "")).join("")}</tr>`).join("\n");
  return [
    `<table role="table" class="sw-table" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;width:100%;margin:8px 0 16px">`,
    `<thead><tr>${head}</tr></thead>`,
    `<tbody>
${body}
</tbody>`,
    "</table>"
  ].join("\n");
}
function htmlParagraph(inner, muted = false) {
  const style = muted ? `margin:8px 0;font-size:13px;color:${MUTED}` : "margin:8px 0;font-size:14px";
  return `<p${muted ? ' class="sw-muted"' : ""} style="${style}">${inner}</p>`;
}
function htmlHeading(inner) {
  return `<h2 style="margin:20px 0 4px;font-size:16px;line-height:1.3">${inner}</h2>`;
}
function htmlList(items) {
  const lis = items.map((item) => `<li style="margin:4px 0">${item}</li>`).join("\n");
  return `<ul style="margin:8px 0;padding-left:20px;font-size:14px">
${lis}
</ul>`;
}
function htmlLayout(parts) {
  const title = escapeHtml(parts.title);
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    '<meta name="supported-color-schemes" content="light dark">',
    `<title>${title}</title>`,
    `<style>
${DARK_CSS}
${NARROW_CSS}
</style>`,
    "</head>",
    `<body class="sw-page" style="margin:0;padding:0;background:${PAGE_BG};color:${TEXT};font-family:${FONT}">`,
    `<table role="presentation" class="sw-page" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:${PAGE_BG}">`,
    '<tr><td align="center" class="sw-outer" style="padding:16px 8px">',
    `<table role="presentation" class="sw-card" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:680px;background:${CARD_BG};color:${TEXT};border:1px solid ${RULE};border-radius:6px">`,
    `<tr><td class="sw-pad" style="padding:20px 24px 8px"><h1 style="margin:0;font-size:18px;line-height:1.35">${title}</h1></td></tr>`,
    `<tr><td class="sw-pad" style="padding:0 24px 8px">
${parts.body}
</td></tr>`,
    `<tr><td class="sw-muted sw-pad" style="padding:12px 24px 20px;font-size:12px;color:${MUTED};border-top:1px solid ${RULE}">${escapeHtml(parts.footer)}</td></tr>`,
    "</table>",
    "</td></tr>",
    "</table>",
    "</body>",
    "</html>"
  ].join("\n");
}
export {
  EMPTY_CELL,
  NARROW_MAX_PX,
  escapeHtml,
  htmlHeading,
  htmlLayout,
  htmlList,
  htmlParagraph,
  htmlTable
};
