import { RegisterReadError } from "./errors.js";
import { cellText } from "./values.js";
function headerText(cell) {
  return cellText(cell).toLowerCase().replace(/\s+/g, " ");
}
function findHeader(rows, spec, scan = 12) {
  const roles = Object.keys(spec);
  for (let row = 0; row < Math.min(scan, rows.length); row++) {
    const cells = (rows[row] ?? []).map(headerText);
    const columns = {};
    let matched = 0;
    for (const role of roles) {
      const index = cells.findIndex((text) => spec[role].test(text));
      if (index < 0) break;
      columns[role] = index;
      matched++;
    }
    if (matched === roles.length) return { row, columns };
  }
  throw new RegisterReadError(
    "wrong-header",
    `no header row with ${roles.join(", ")} in the first ${scan} rows`
  );
}
function rowsBelow(rows, header) {
  return rows.slice(header + 1).filter((row) => row.some((cell) => cellText(cell) !== ""));
}
export {
  findHeader,
  headerText,
  rowsBelow
};
