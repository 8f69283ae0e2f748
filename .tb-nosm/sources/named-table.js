import { round4 } from "../positions/round.js";
import { findHeader, headerText, rowsBelow } from "./columns.js";
import { RegisterReadError } from "./errors.js";
import { cellText, requireDate, requireIsin, requirePercent } from "./values.js";
function namedRows(rows, layout) {
  return namedRowsWithCells(rows, layout).map(({ row }) => row);
}
function namedRowsWithCells(rows, layout) {
  const header = findNamedHeader(rows, layout);
  const lei = layout.lei === void 0 ? void 0 : findHeader(rows, { lei: layout.lei }).columns.lei;
  const replaced = layout.replacedOn === void 0 ? void 0 : findHeader(rows, { on: layout.replacedOn }).columns.on;
  const body = rowsBelow(rows, header.row + (layout.extraHeaderRows ?? 0));
  const trailer = layout.trailer;
  const end = trailer === void 0 ? -1 : body.findIndex((row) => isTrailer(row, trailer));
  if (end < 0 && layout.trailerRequired) {
    throw new RegisterReadError("truncated", "the file ends before its trailer");
  }
  const c = header.columns;
  const used = Object.values(c);
  const data = (end < 0 ? body : body.slice(0, end)).filter(
    (row) => used.some((index) => cellText(row[index]) !== "")
  );
  return data.map((cells, i) => {
    const where = `data row ${i + 1}`;
    const parsed = {
      isin: requireIsin(cells[c.isin], where),
      issuer: cellText(cells[c.issuer]),
      holder: cellText(cells[c.holder]),
      // Registers publish at most 4 decimals of a per cent.
      percent: round4(requirePercent(cells[c.percent], where)),
      date: requireDate(cells[c.date], where)
    };
    const leiText = lei === void 0 ? "" : cellText(cells[lei]);
    if (leiText !== "") parsed.lei = leiText;
    if (replaced !== void 0 && cellText(cells[replaced]) !== "")
      parsed.replacedOn = requireDate(cells[replaced], where);
    return { row: parsed, cells, header: header.row };
  });
}
function optionalColumn(rows, header, pattern) {
  const index = (rows[header] ?? []).map(headerText).findIndex((text) => pattern.test(text));
  return index < 0 ? void 0 : index;
}
function findNamedHeader(rows, layout) {
  try {
    return findHeader(rows, layout.header);
  } catch (error) {
    if (!layout.dateAfterPercent) throw error;
    const { date: _date, ...rest } = layout.header;
    const found = findHeader(rows, rest);
    return { row: found.row, columns: { ...found.columns, date: found.columns.percent + 1 } };
  }
}
function isTrailer(row, trailer) {
  const first = row.find((cell) => cellText(cell) !== "");
  return trailer.test(cellText(first));
}
export {
  namedRows,
  namedRowsWithCells,
  optionalColumn
};
