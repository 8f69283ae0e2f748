function pageText(html) {
  return cellTextOf(html.replace(/<(script|style|noscript)\b[\s\S]*?<\/\1>/gi, " "));
}
function innermostTables(html) {
  const tables = [];
  for (const start of html.matchAll(/<table\b[^>]*>/gi)) {
    const from = (start.index ?? 0) + start[0].length;
    const end = html.slice(from).search(/<\/table>/i);
    const inner = end < 0 ? html.slice(from) : html.slice(from, from + end);
    if (/<table\b/i.test(inner)) continue;
    const footer = /<tfoot\b[^>]*>([\s\S]*?)<\/tfoot>/i.exec(inner);
    const body = footer === null ? inner : inner.replace(footer[0], "");
    tables.push({ rows: rowsOf(body), footer: cellTextOf(footer?.[1] ?? "") });
  }
  return tables;
}
function rowsOf(html) {
  return [...html.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/gi)].map(
    (row) => [...(row[1] ?? "").matchAll(/<t([dh])\b[^>]*>([\s\S]*?)<\/t\1>/gi)].map(
      (cell) => cellTextOf(cell[2] ?? "")
    )
  );
}
const NAMED = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
function cellTextOf(html) {
  return html.replace(/<[^>]*>/g, " ").replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name) => {
    if (name.startsWith("#")) {
      const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 1114111 ? String.fromCodePoint(code) : entity;
    }
    return NAMED[name.toLowerCase()] ?? entity;
  }).replace(/\s+/g, " ").trim();
}
export {
  innermostTables,
  pageText
};
