import { RegisterReadError } from "./errors.js";
import { odsCells, xlsxCells } from "./sheet-cells.js";
import { walkZip } from "./zip-bound.js";
const ZIP_MAGIC = Buffer.from([80, 75, 3, 4]);
const ZIP_END_MAGIC = Buffer.from([80, 75, 5, 6]);
const CFB_MAGIC = Buffer.from([208, 207, 17, 224, 161, 177, 26, 225]);
const NEWLINE = 10;
const FIELD_ENDS = [44, 59, 9, 124, NEWLINE];
function checkShape(bytes, limits) {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (startsWith(buffer, ZIP_MAGIC)) checkZip(buffer, limits);
  else if (!startsWith(buffer, CFB_MAGIC) && !looksLikeJson(buffer)) checkText(buffer, limits);
}
function checkZip(zip, limits) {
  const endRecord = zip.lastIndexOf(ZIP_END_MAGIC);
  if (endRecord < 0) return;
  let cells = 0;
  walkZip(zip, endRecord, limits.maxUnpackedBytes, ({ name, bytes }) => {
    if (name === "content.xml") cells += odsCells(bytes.toString("latin1"));
    else if (/^xl\/worksheets\/[^/]+\.xml$/i.test(name)) cells += xlsxCells(bytes.toString("latin1"));
    if (cells > limits.maxCells) tooManyCells(limits.maxCells);
  });
}
function checkText(text, limits) {
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf(NEWLINE, start);
    const stop = end < 0 ? text.length : end;
    if (stop - start > limits.maxLineBytes)
      throw new RegisterReadError("too-large", `a line is longer than ${limits.maxLineBytes} bytes`);
    start = stop + 1;
  }
  let fields = 1;
  for (const byte of FIELD_ENDS) fields += countByte(text, byte);
  if (fields > limits.maxCells) tooManyCells(limits.maxCells);
}
function countByte(buffer, byte) {
  let count = 0;
  for (let at = buffer.indexOf(byte); at >= 0; at = buffer.indexOf(byte, at + 1)) count++;
  return count;
}
function tooManyCells(limit) {
  throw new RegisterReadError("too-large", `the file holds more than ${limit} cells`);
}
function looksLikeJson(buffer) {
  const head = buffer.toString("latin1", 0, Math.min(buffer.length, 64)).replace(/^\uFEFF|^\xEF\xBB\xBF/, "");
  return /^\s*[[{]/.test(head);
}
function startsWith(buffer, magic) {
  return buffer.subarray(0, magic.length).equals(magic);
}
export {
  checkShape
};
