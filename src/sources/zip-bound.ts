import { inflateRawSync } from 'node:zlib';
import { RegisterReadError } from './errors.js';

const END_SIZE = 22;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;
const CENTRAL_MAGIC = 0x02014b50;
const LOCAL_MAGIC = 0x04034b50;
const STORED = 0;
const DEFLATE = 8;
// SheetJS refuses these flags (encryption); a zip carrying them is not a register's.
const ENCRYPTED = 0x2041;

/** One entry of a zip as SheetJS reads it: the local header's name and the entry's unpacked bytes. */
export interface ZipEntry {
  name: string;
  bytes: Buffer;
}

/**
 * Walks a zip's entries the way SheetJS 0.20.3 (`parse_zip`) does, so that what is measured is what it
 * would unpack: the count is the end record's "entries on this disk" (SheetJS reads that field, not
 * "total entries"; the two must agree), each entry's method, name and data come from its local header,
 * and a deflated entry is inflated to the end of its stream whatever its declared sizes say. Every entry
 * is inflated with a cap: past `limit` unpacked bytes in all, `too-large`. The walk fails closed: a
 * directory or header out of place, a method or flag SheetJS does not read, or a stream that does not
 * inflate is `unparseable`, never an entry left unmeasured. `visit` sees each entry while the walk holds
 * its bytes.
 */
export function walkZip(
  zip: Buffer,
  endRecord: number,
  limit: number,
  visit: (entry: ZipEntry) => void,
): void {
  if (endRecord + END_SIZE > zip.length) refuse('the zip end record is cut off');
  const entries = zip.readUInt16LE(endRecord + 8);
  if (entries !== zip.readUInt16LE(endRecord + 10))
    refuse('the zip end record counts its entries twice, differently');
  let at = zip.readUInt32LE(endRecord + 16);
  let budget = limit;
  for (let i = 0; i < entries; i++) {
    if (at + CENTRAL_SIZE > zip.length || zip.readUInt32LE(at) !== CENTRAL_MAGIC)
      refuse(`zip directory entry ${i + 1} of ${entries} is not where the directory says`);
    const entry = readEntry(zip, zip.readUInt32LE(at + 42), budget, limit);
    budget -= entry.bytes.length;
    visit(entry);
    at += CENTRAL_SIZE + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
}

/** One entry from its local header, unpacked within `budget` bytes. */
function readEntry(zip: Buffer, local: number, budget: number, limit: number): ZipEntry {
  if (local + LOCAL_SIZE > zip.length || zip.readUInt32LE(local) !== LOCAL_MAGIC)
    refuse('a zip entry has no local header where its directory entry points');
  const flags = zip.readUInt16LE(local + 6);
  const method = zip.readUInt16LE(local + 8);
  const nameLength = zip.readUInt16LE(local + 26);
  const start = local + LOCAL_SIZE + nameLength + zip.readUInt16LE(local + 28);
  const name = zip.toString('latin1', local + LOCAL_SIZE, local + LOCAL_SIZE + nameLength);
  if ((flags & ENCRYPTED) !== 0) refuse(`zip entry ${name} is encrypted`);
  if (start > zip.length) refuse(`zip entry ${name} starts past the end of the file`);
  if (method === STORED) {
    const bytes = zip.subarray(start, start + zip.readUInt32LE(local + 18));
    if (bytes.length > budget) tooLarge(limit);
    return { name, bytes };
  }
  if (method !== DEFLATE) refuse(`zip entry ${name} uses compression method ${method}`);
  return { name, bytes: inflateCapped(zip.subarray(start), budget, limit, name) };
}

function inflateCapped(stream: Buffer, budget: number, limit: number, name: string): Buffer {
  try {
    // To the end of the file, not the declared size: SheetJS inflates until the stream ends.
    return inflateRawSync(stream, { maxOutputLength: Math.max(1, budget) });
  } catch (error) {
    if (error instanceof RangeError && 'code' in error && error.code === 'ERR_BUFFER_TOO_LARGE')
      tooLarge(limit);
    throw new RegisterReadError('unparseable', `zip entry ${name} does not inflate`, { cause: error });
  }
}

function tooLarge(limit: number): never {
  throw new RegisterReadError('too-large', `the spreadsheet unpacks to more than ${limit} bytes`);
}

function refuse(detail: string): never {
  throw new RegisterReadError('unparseable', detail);
}
