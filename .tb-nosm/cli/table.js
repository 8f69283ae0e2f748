import { displayText } from "../channels/format.js";
function renderTable(headers, rows) {
  const cells = rows.map((row) => row.map((cell) => displayText(String(cell))));
  const widths = headers.map(
    (header, i) => Math.max(header.length, ...cells.map((row) => (row[i] ?? "").length))
  );
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((row) => typeof row[i] === "number"));
  const line = (row) => row.map((cell, i) => numeric[i] ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)).join("  ").trimEnd();
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}
export {
  renderTable
};
