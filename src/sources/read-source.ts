import type { Dispatcher } from 'undici';
import type { RegisterSourceConfig } from '../config/schema/sources.js';
import { isRegisterReadError, type NotReadReason } from './errors.js';
import { fetchRegister } from './fetch.js';
import { readRegister } from './health.js';
import { REGISTER_READERS } from './registers.js';
import type { LastRead, RegisterSnapshot } from './types.js';

/**
 * One poll of a whole-register source: nothing new (304), a snapshot with the validators to keep, or
 * "not read" with the reason. Only a `read` replaces `LastRead`: after a refused file the next GET is
 * still conditional on the last good one, so a repaired file is fetched again.
 */
export type SourceRead =
  | { status: 'not-modified' }
  | { status: 'read'; snapshot: RegisterSnapshot; last: LastRead }
  | { status: 'not-read'; reason: NotReadReason; detail: string };

/** Fetches and reads one register source; never throws a `RegisterReadError`. */
export async function readSource(
  source: RegisterSourceConfig,
  last: LastRead | undefined,
  dispatcher?: Dispatcher,
): Promise<SourceRead> {
  let fetched: Awaited<ReturnType<typeof fetchRegister>>;
  try {
    fetched = await fetchRegister(source.url, last?.validators ?? {}, source.fetch, dispatcher);
  } catch (error) {
    if (isRegisterReadError(error))
      return { status: 'not-read', reason: error.reason, detail: error.message };
    throw error;
  }
  if (fetched.status === 'not-modified') return fetched;
  const outcome = readRegister(REGISTER_READERS[source.kind], fetched.bytes, {
    ...source.fetch,
    lastGood: last,
  });
  if (outcome.status === 'not-read') return outcome;
  return {
    status: 'read',
    snapshot: outcome.snapshot,
    last: { validators: fetched.validators, rows: outcome.snapshot.rows },
  };
}
