import { decodeCsv, decodeText, decodeWorkbook } from "./decode.js";
import { RegisterReadError } from "./errors.js";
function readerOf(reader) {
  return { ...reader, read: (bytes) => reader.parse(reader.decode(bytes)) };
}
function csvDecoder(encoding, delimiter) {
  return (bytes) => decodeCsv(decodeText(bytes, encoding), delimiter);
}
function workbookDecoder(decoding = {}) {
  const { sheets: picks, rowsAtFirst } = decoding;
  const reading = rowsAtFirst === void 0 ? {} : { rowsAtFirst };
  if (picks !== void 0 && picks.length > 0)
    reading.only = (names) => names.filter((name, index) => picks.some((pick) => matches(pick, name, index)));
  return (bytes) => decodeWorkbook(bytes, reading);
}
function matches(pick, name, index) {
  return "index" in pick ? pick.index === index : pick.name.test(name.trim());
}
function sheet(table, pick) {
  const found = "index" in pick ? table.sheets[pick.index] : table.sheets.find((s) => pick.name.test(s.name.trim()));
  if (found === void 0)
    throw new RegisterReadError("wrong-header", "the workbook lacks the expected sheet");
  return found;
}
export {
  csvDecoder,
  readerOf,
  sheet,
  workbookDecoder
};
