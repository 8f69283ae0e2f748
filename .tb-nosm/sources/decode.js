import { createRequire } from "node:module";
import { CsvError, parse as parseCsvSync } from "csv-parse/sync";
import iconv from "iconv-lite";
import { RegisterReadError } from "./errors.js";
const ZIP_MAGIC = [80, 75, 3, 4];
const ZIP_END_MAGIC = Buffer.from([80, 75, 5, 6]);
const CFB_MAGIC = [208, 207, 17, 224, 161, 177, 26, 225];
function decodeText(bytes, encoding) {
  return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), encoding, {
    stripBOM: true
  });
}
function decodeCsv(text, delimiter) {
  try {
    const rows = parseCsvSync(text, {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      bom: true
    });
    return { sheets: [{ name: "csv", rows }] };
  } catch (error) {
    if (error instanceof CsvError && error.code === "CSV_QUOTE_NOT_CLOSED") {
      throw new RegisterReadError("truncated", "the CSV ends inside a quoted field", { cause: error });
    }
    if (error instanceof CsvError && error.lines === 1) {
      throw new RegisterReadError("wrong-header", `the first line is not this register's header`, {
        cause: error
      });
    }
    throw new RegisterReadError("unparseable", `not a CSV: ${errorText(error)}`, { cause: error });
  }
}
const requireCjs = createRequire(import.meta.url);
let sheetJsModule;
function sheetJs() {
  sheetJsModule ??= requireCjs("@e965/xlsx");
  return sheetJsModule;
}
function decodeWorkbook(bytes, reading = {}) {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const zip = startsWith(buffer, ZIP_MAGIC);
  if (!zip && !startsWith(buffer, CFB_MAGIC)) {
    throw new RegisterReadError("unparseable", "not a spreadsheet (neither a zip nor a compound file)");
  }
  const endRecord = zip ? buffer.lastIndexOf(ZIP_END_MAGIC) : -1;
  if (zip && endRecord < 0) {
    throw new RegisterReadError("truncated", "the spreadsheet ends before its zip directory");
  }
  let workbook;
  try {
    workbook = readWorkbook(buffer, zip, reading);
  } catch (error) {
    const reason = zip ? "unparseable" : "truncated";
    throw new RegisterReadError(reason, `the spreadsheet cannot be read: ${errorText(error)}`, {
      cause: error
    });
  }
  const names = keptSheets(workbook, reading);
  const date1904 = workbook.Workbook?.WBProps?.date1904 === true;
  return {
    sheets: names.map((name) => ({ name, rows: sheetRows(workbook.Sheets[name], date1904) }))
  };
}
function readWorkbook(buffer, zip, reading) {
  const options = {
    type: "buffer",
    dense: true,
    cellFormula: false,
    cellHTML: false,
    cellText: false,
    cellNF: true,
    nodim: true
  };
  if (zip && reading.only !== void 0)
    options.sheets = reading.only(sheetJs().read(buffer, { type: "buffer", bookSheets: true }).SheetNames);
  const rows = reading.rowsAtFirst;
  if (rows === void 0) return sheetJs().read(buffer, options);
  const bounded = sheetJs().read(buffer, { ...options, sheetRows: rows });
  const cut = keptSheets(bounded, reading).some((name) => reachesBound(bounded.Sheets[name], rows));
  return cut ? sheetJs().read(buffer, options) : bounded;
}
function keptSheets(workbook, reading) {
  const names = workbook.SheetNames.filter((name) => workbook.Sheets[name] !== void 0);
  if (reading.only === void 0) return names;
  const kept = new Set(reading.only(workbook.SheetNames));
  return names.filter((name) => kept.has(name));
}
function reachesBound(sheet, rows) {
  if (sheet === void 0) return false;
  if (sheet["!fullref"] !== void 0) return true;
  const ref = sheet["!ref"];
  return ref !== void 0 && sheetJs().utils.decode_range(ref).e.r >= rows - 1;
}
function sheetRows(sheet, date1904) {
  if (sheet === void 0) return [];
  for (const row of sheet["!data"] ?? []) for (const cell of row ?? []) if (cell) asShown(cell, date1904);
  return sheetJs().utils.sheet_to_json(sheet, {
    header: 1,
    raw: true,
    blankrows: false,
    defval: null
  });
}
const DAYS_1900_TO_1904 = 1462;
function asShown(cell, date1904) {
  const format = cell.z;
  delete cell.z;
  if (cell.t !== "n" || typeof cell.v !== "number" || typeof format !== "string") return;
  const shape = format.replace(/"[^"]*"|\\.|\[[^\]]*\]/g, "");
  if (shape.includes("%")) cell.v = Number((cell.v * 100).toPrecision(12));
  else if (date1904 && sheetJs().SSF.is_date(format)) cell.v += DAYS_1900_TO_1904;
}
function startsWith(buffer, magic) {
  return magic.every((byte, i) => buffer[i] === byte);
}
function errorText(error) {
  return error instanceof Error ? error.message : String(error);
}
export {
  decodeCsv,
  decodeText,
  decodeWorkbook
};
