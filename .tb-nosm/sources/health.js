import { isRegisterReadError } from "./errors.js";
const HTML_START = /^(?:\uFEFF)?\s*<(?:!doctype html|html|head|body)\b/i;
function looksLikeHtml(bytes) {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString(
    "latin1"
  );
  return HTML_START.test(head);
}
function readRegister(reader, bytes, options) {
  if (reader.readsHtml !== true && looksLikeHtml(bytes))
    return notRead("html-page", "an HTML page was served in place of the file");
  let snapshot;
  try {
    snapshot = reader.read(bytes);
  } catch (error) {
    if (isRegisterReadError(error)) return notRead(error.reason, error.message);
    return notRead("unparseable", error instanceof Error ? error.message : String(error));
  }
  const last = options.lastGood?.rows;
  if (options.mayEmpty) return { status: "read", snapshot };
  if (last !== void 0 && last >= options.shrinkFloor && snapshot.rows <= last * options.minShrinkRatio) {
    return notRead("shrank", `${snapshot.rows} rows where the last good read had ${last}`);
  }
  return { status: "read", snapshot };
}
function notRead(reason, detail) {
  return { status: "not-read", reason, detail };
}
export {
  looksLikeHtml,
  readRegister
};
