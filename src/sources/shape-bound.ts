import type { RegisterParseConfig } from '../config/schema/sources.js';
import { RegisterReadError } from './errors.js';
import { odsCells, xlsxCells } from './sheet-cells.js';
import { walkZip } from './zip-bound.js';

/** The caps a file's bytes are held to before a parser sees them. */
export type ShapeLimits = Pick<RegisterParseConfig, 'maxCells' | 'maxLineBytes' | 'maxUnpackedBytes'>;

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const ZIP_END_MAGIC = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const CFB_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const NEWLINE = 0x0a;
// Bytes that end a CSV field under any delimiter a register uses (`,`, `;`, tab, `|`) or a line.
const FIELD_ENDS = [0x2c, 0x3b, 0x09, 0x7c, NEWLINE];

/**
 * Refuses (`too-large`, `unparseable`) a file whose shape would cost a parser more than `limits` allow:
 * a zip (XLSX, ODS) that unpacks past `maxUnpackedBytes` or whose sheets hold more than `maxCells` cells;
 * a text file with a line longer than `maxLineBytes` or more than `maxCells` fields. An XLS (compound
 * file) and JSON are left to the worker's memory and time limits: their cost follows their size.
 */
export function checkShape(bytes: Uint8Array, limits: ShapeLimits): void {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (startsWith(buffer, ZIP_MAGIC)) checkZip(buffer, limits);
  else if (!startsWith(buffer, CFB_MAGIC) && !looksLikeJson(buffer)) checkText(buffer, limits);
}

function checkZip(zip: Buffer, limits: ShapeLimits): void {
  const endRecord = zip.lastIndexOf(ZIP_END_MAGIC);
  // Without its end record the download was cut off: the decoder says so.
  if (endRecord < 0) return;
  let cells = 0;
  walkZip(zip, endRecord, limits.maxUnpackedBytes, ({ name, bytes }) => {
    if (name === 'content.xml') cells += odsCells(bytes.toString('latin1'));
    else if (/^xl\/worksheets\/[^/]+\.xml$/i.test(name)) cells += xlsxCells(bytes.toString('latin1'));
    if (cells > limits.maxCells) tooManyCells(limits.maxCells);
  });
}

function checkText(text: Buffer, limits: ShapeLimits): void {
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf(NEWLINE, start);
    const stop = end < 0 ? text.length : end;
    if (stop - start > limits.maxLineBytes)
      throw new RegisterReadError('too-large', `a line is longer than ${limits.maxLineBytes} bytes`);
    start = stop + 1;
  }
  let fields = 1;
  for (const byte of FIELD_ENDS) fields += countByte(text, byte);
  if (fields > limits.maxCells) tooManyCells(limits.maxCells);
}

function countByte(buffer: Buffer, byte: number): number {
  let count = 0;
  for (let at = buffer.indexOf(byte); at >= 0; at = buffer.indexOf(byte, at + 1)) count++;
  return count;
}

function tooManyCells(limit: number): never {
  throw new RegisterReadError('too-large', `the file holds more than ${limit} cells`);
}

function looksLikeJson(buffer: Buffer): boolean {
  const head = buffer.toString('latin1', 0, Math.min(buffer.length, 64)).replace(/^\uFEFF|^\xEF\xBB\xBF/, '');
  return /^\s*[[{]/.test(head);
}

function startsWith(buffer: Buffer, magic: Buffer): boolean {
  return buffer.subarray(0, magic.length).equals(magic);
}
