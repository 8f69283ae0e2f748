import { inflateRawSync } from "node:zlib";
import { RegisterReadError } from "./errors.js";
const END_SIZE = 22;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;
const CENTRAL_MAGIC = 33639248;
const LOCAL_MAGIC = 67324752;
const STORED = 0;
const DEFLATE = 8;
const ENCRYPTED = 8257;
function walkZip(zip, endRecord, limit, visit) {
  if (endRecord + END_SIZE > zip.length) refuse("the zip end record is cut off");
  const entries = zip.readUInt16LE(endRecord + 8);
  if (entries !== zip.readUInt16LE(endRecord + 10))
    refuse("the zip end record counts its entries twice, differently");
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
function readEntry(zip, local, budget, limit) {
  if (local + LOCAL_SIZE > zip.length || zip.readUInt32LE(local) !== LOCAL_MAGIC)
    refuse("a zip entry has no local header where its directory entry points");
  const flags = zip.readUInt16LE(local + 6);
  const method = zip.readUInt16LE(local + 8);
  const nameLength = zip.readUInt16LE(local + 26);
  const start = local + LOCAL_SIZE + nameLength + zip.readUInt16LE(local + 28);
  const name = zip.toString("latin1", local + LOCAL_SIZE, local + LOCAL_SIZE + nameLength);
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
function inflateCapped(stream, budget, limit, name) {
  try {
    return inflateRawSync(stream, { maxOutputLength: Math.max(1, budget) });
  } catch (error) {
    if (error instanceof RangeError && "code" in error && error.code === "ERR_BUFFER_TOO_LARGE")
      tooLarge(limit);
    throw new RegisterReadError("unparseable", `zip entry ${name} does not inflate`, { cause: error });
  }
}
function tooLarge(limit) {
  throw new RegisterReadError("too-large", `the spreadsheet unpacks to more than ${limit} bytes`);
}
function refuse(detail) {
  throw new RegisterReadError("unparseable", detail);
}
export {
  walkZip
};
