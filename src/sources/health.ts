import type { RegisterFetchConfig } from '../config/schema/sources.js';
import type { NotReadReason } from './errors.js';
import { isRegisterReadError } from './errors.js';
import type { AnyRegisterReader } from './reader.js';
import type { RegisterSnapshot } from './types.js';

/** What a read is compared with: the last snapshot that was read. */
export interface LastGoodRead {
  rows: number;
}

/** A file read into a snapshot, or refused with the reason: a refused file changes nothing. */
export type ReadOutcome =
  | { status: 'read'; snapshot: RegisterSnapshot }
  | { status: 'not-read'; reason: NotReadReason; detail: string };

// What an HTML page starts with, after any BOM and white space: a register served as 200 with an
// error or login page in place of the file.
const HTML_START = /^(?:\uFEFF)?\s*<(?:!doctype html|html|head|body)\b/i;

/** True when the bytes begin like an HTML page (the first 1 KB is enough to tell). */
export function looksLikeHtml(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString(
    'latin1',
  );
  return HTML_START.test(head);
}

/**
 * Reads one fetched file with its register's reader and checks that the result is plausible: an HTML
 * page, a file the reader refuses (cut off, wrong header, not parseable) and a snapshot with fewer
 * rows than `minShrinkRatio` of the last good read (or exactly that share) are all "not read", never a snapshot.
 */
export function readRegister(
  reader: AnyRegisterReader,
  bytes: Uint8Array,
  options: {
    lastGood?: LastGoodRead | undefined;
    /** The register no longer names holders (past its regime boundary): emptying out is expected. */
    mayEmpty?: boolean;
  } & Pick<RegisterFetchConfig, 'minShrinkRatio' | 'shrinkFloor'>,
): ReadOutcome {
  if (reader.readsHtml !== true && looksLikeHtml(bytes))
    return notRead('html-page', 'an HTML page was served in place of the file');
  let snapshot: RegisterSnapshot;
  try {
    snapshot = reader.read(bytes);
  } catch (error) {
    if (isRegisterReadError(error)) return notRead(error.reason, error.message);
    // A reader that fails in a way it did not foresee: still "not read", with the cause's text.
    return notRead('unparseable', error instanceof Error ? error.message : String(error));
  }
  // A small register may empty out for real (Ireland lists one position): below the floor, no check.
  const last = options.lastGood?.rows;
  if (options.mayEmpty) return { status: 'read', snapshot };
  if (last !== undefined && last >= options.shrinkFloor && snapshot.rows <= last * options.minShrinkRatio) {
    return notRead('shrank', `${snapshot.rows} rows where the last good read had ${last}`);
  }
  return { status: 'read', snapshot };
}

function notRead(reason: NotReadReason, detail: string): ReadOutcome {
  return { status: 'not-read', reason, detail };
}
