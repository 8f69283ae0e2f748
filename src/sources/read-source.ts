import type { Dispatcher } from 'undici';
import { isPaired, type RegisterKind, type RegisterSourceConfig } from '../config/schema/sources.js';
import { isRegisterReadError, type NotReadReason } from './errors.js';
import { fetchRegister } from './fetch.js';
import { readIsolated } from './isolated-read.js';
import { REGISTER_REQUESTS } from './paged-fetch.js';
import { REGISTER_PAIRS, type RegisterPair } from './registers.js';
import type { FileRead, LastRead, RegisterSnapshot } from './types.js';

/**
 * One poll of a whole-register source: nothing new (304), a snapshot with the validators to keep, or
 * "not read" with the reason. Only a `read` replaces `LastRead`: after a refused file the next GET is
 * still conditional on the last good one, so a repaired file is fetched again.
 */
export type SourceRead =
  | { status: 'not-modified' }
  | { status: 'read'; snapshot: RegisterSnapshot; last: LastRead }
  | { status: 'not-read'; reason: NotReadReason; detail: string };

/** What a read is compared with, beyond the file's own last read. */
export interface ReadContext {
  /** The last good snapshot of the source: a pair joins against it to keep its issuers' keys. */
  previous?: RegisterSnapshot | undefined;
  dispatcher?: Dispatcher | undefined;
  /** When the read happens: past `regimeBoundary.namedHoldersUntil`, a file that empties out is read. */
  now?: Date | undefined;
}

type FileOutcome =
  | { status: 'not-modified' }
  | { status: 'read'; snapshot: RegisterSnapshot; file: FileRead }
  | { status: 'not-read'; reason: NotReadReason; detail: string };

/** Fetches and reads one register source (one file, or a pair); never throws a `RegisterReadError`. */
export async function readSource(
  source: RegisterSourceConfig,
  last: LastRead | undefined,
  context: ReadContext = {},
): Promise<SourceRead> {
  if (source.aggregateUrl !== undefined && isPaired(source.kind))
    return readPair(
      source,
      { pair: REGISTER_PAIRS[source.kind], aggregateUrl: source.aggregateUrl },
      last,
      context,
    );
  const outcome = await readFile(source, { url: source.url, kind: source.kind, last }, context);
  if (outcome.status !== 'read') return outcome;
  return { status: 'read', snapshot: outcome.snapshot, last: outcome.file };
}

/**
 * A positions file and its register's aggregate file, joined into one snapshot. Both are asked
 * conditionally; when only one changed, the other is fetched again whole (a register costs no quota),
 * so the join always sees both files as they are. Either file refused refuses the read.
 */
async function readPair(
  source: RegisterSourceConfig,
  { pair, aggregateUrl }: { pair: RegisterPair; aggregateUrl: string },
  last: LastRead | undefined,
  context: ReadContext,
): Promise<SourceRead> {
  const files = [
    { url: source.url, kind: source.kind, last },
    { url: aggregateUrl, kind: pair.companion, last: last?.companion, label: 'the aggregate file' },
  ] as const;
  let [main, companion] = await Promise.all(files.map((file) => readFile(source, file, context)));
  if (main?.status === 'not-modified' && companion?.status === 'not-modified') return main;
  if (main?.status === 'not-modified') main = await readFile(source, whole(files[0]), context);
  if (companion?.status === 'not-modified') companion = await readFile(source, whole(files[1]), context);
  if (main?.status !== 'read') return notReadOf(main);
  if (companion?.status !== 'read') return notReadOf(companion);
  return {
    status: 'read',
    snapshot: pair.join(main.snapshot, companion.snapshot, context.previous),
    last: { ...main.file, companion: companion.file },
  };
}

interface SourceFile {
  url: string;
  kind: RegisterKind;
  last: FileRead | undefined;
  /** How a refusal names this file, when the source reads more than one. */
  label?: string;
  /** Fetch the whole file even when it is unchanged. */
  whole?: boolean;
}

function whole(file: SourceFile): SourceFile {
  return { ...file, whole: true };
}

async function readFile(
  source: RegisterSourceConfig,
  file: SourceFile,
  { dispatcher, now }: ReadContext,
): Promise<FileOutcome> {
  const labelled = (detail: string) => (file.label === undefined ? detail : `${file.label}: ${detail}`);
  let fetched: Awaited<ReturnType<typeof fetchRegister>>;
  try {
    const validators = file.whole ? {} : (file.last?.validators ?? {});
    const post = REGISTER_REQUESTS[file.kind];
    fetched =
      post === undefined
        ? await fetchRegister(file.url, validators, source.fetch, dispatcher)
        : await post(file.url, source.fetch, dispatcher);
  } catch (error) {
    if (isRegisterReadError(error))
      return { status: 'not-read', reason: error.reason, detail: labelled(error.message) };
    throw error;
  }
  if (fetched.status === 'not-modified') return fetched;
  const outcome = await readIsolated(
    {
      ...source.fetch,
      ...source.parse,
      kind: file.kind,
      bytes: fetched.bytes,
      lastRows: file.last?.rows,
      mayEmpty: pastNamedHolders(source, now),
    },
    source.parse,
  );
  if (outcome.status === 'not-read') return { ...outcome, detail: labelled(outcome.detail) };
  return {
    status: 'read',
    snapshot: outcome.snapshot,
    file: { validators: fetched.validators, rows: outcome.snapshot.rows },
  };
}

function notReadOf(outcome: FileOutcome | undefined): SourceRead {
  if (outcome?.status === 'not-read') return outcome;
  // A whole fetch that answers 304 anyway: the server ignored that nothing was asked conditionally.
  return { status: 'not-read', reason: 'http-status', detail: 'HTTP 304 to an unconditional request' };
}

/**
 * Past the register's last day of named holders (the UK legacy workbook after 12 July 2026), a file
 * that empties out is the boundary itself, not an implausible read: refusing it as `shrank` would keep
 * the source "not read" for good and never tell the boundary.
 */
function pastNamedHolders(source: RegisterSourceConfig, now: Date | undefined): boolean {
  const until = source.regimeBoundary.namedHoldersUntil;
  return until !== undefined && now !== undefined && now.toISOString().slice(0, 10) > until;
}
