import { inflateRawSync } from 'node:zlib';
import { RegisterReadError } from './errors.js';

/**
 * How many bytes a register's spreadsheet may unpack to. The real ones unpack to at most 8 times their
 * size (CONSOB: 0.8 MB to 6.4 MB; Sweden 0.6 MB to 1.6 MB), while SheetJS holds an unpacked part as one
 * string and needs some 7 times its size in memory: a zip of 1 MB that unpacks to 1 GB would take the
 * process down, where the download limit (`fetch.maxBytes`) sees only the 1 MB.
 */
export const MAX_UNPACKED_BYTES = 128 * 1024 * 1024;

const CENTRAL_MAGIC = 0x02014b50;
const LOCAL_MAGIC = 0x04034b50;
const DEFLATE = 8;

/**
 * Throws `too-large` when the zip's entries unpack to more than `limit` bytes, measured by inflating
 * each one with a cap (its declared sizes may lie). A directory it cannot walk is left to SheetJS.
 */
export function checkUnpackedSize(zip: Buffer, endRecord: number, limit = MAX_UNPACKED_BYTES): void {
  if (endRecord + 22 > zip.length) return;
  const entries = zip.readUInt16LE(endRecord + 10);
  let at = zip.readUInt32LE(endRecord + 16);
  let budget = limit;
  for (let i = 0; i < entries && at + 46 <= zip.length; i++) {
    if (zip.readUInt32LE(at) !== CENTRAL_MAGIC) return;
    const size = unpackedSize(zip, at, budget);
    if (size === undefined || size > budget)
      throw new RegisterReadError('too-large', `the spreadsheet unpacks to more than ${limit} bytes`);
    budget -= size;
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
}

/** One central-directory entry's unpacked size, inflating at most `budget` bytes of it; undefined past that. */
function unpackedSize(zip: Buffer, central: number, budget: number): number | undefined {
  const method = zip.readUInt16LE(central + 10);
  const packed = zip.readUInt32LE(central + 20);
  const local = zip.readUInt32LE(central + 42);
  if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL_MAGIC) return 0;
  const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
  if (method !== DEFLATE) return zip.subarray(start, start + packed).length;
  try {
    // To the end of the file, not the declared size: SheetJS inflates until the stream ends.
    return inflateRawSync(zip.subarray(start), { maxOutputLength: Math.max(1, budget) }).length;
  } catch (error) {
    if (error instanceof RangeError && 'code' in error && error.code === 'ERR_BUFFER_TOO_LARGE')
      return undefined;
    // A broken stream is SheetJS's to report, as it always was.
    return 0;
  }
}
