import type { PollFailureCause } from '../state/poll-health.js';
import { isSnapshotCorruptError } from '../state/snapshot-corrupt-error.js';
import {
  BodyTooLargeError,
  InvalidRequestError,
  isUpstreamError,
  SchemaError,
  ServerError,
  UnexpectedStatusError,
  UpstreamNetworkError,
  UpstreamTimeoutError,
} from '../upstream/errors.js';

/**
 * A 200 that cannot be what we asked for: another issuer, another status filter, an older dataset than
 * the one we hold, or one page of several. Nothing of it is diffed or stored.
 */
export class ImplausibleAnswerError extends Error {
  override readonly name = 'ImplausibleAnswerError';
  readonly reason: Extract<PollFailureCause, 'wrong-issuer' | 'status-echo' | 'backwards' | 'partial'>;

  constructor(reason: ImplausibleAnswerError['reason'], message: string) {
    super(message);
    this.reason = reason;
  }
}

/** Why a poll failed, as metrics, health and notices name it. */
export function failureCause(error: unknown): PollFailureCause {
  if (error instanceof ImplausibleAnswerError) return error.reason;
  if (isSnapshotCorruptError(error)) return 'corrupt-snapshot';
  if (!isUpstreamError(error)) return 'internal';
  if (error instanceof InvalidRequestError) return 'bad-request';
  if (error instanceof SchemaError) return 'schema';
  if (error instanceof ServerError) return 'server';
  if (error instanceof UpstreamTimeoutError) return 'timeout';
  if (error instanceof UpstreamNetworkError) return 'network';
  if (error instanceof BodyTooLargeError) return 'too-large';
  if (error instanceof UnexpectedStatusError) return 'unexpected-status';
  return 'internal';
}

/**
 * Causes a retry within the same sweep cannot fix: the same request gets the same answer, and each try
 * costs a token. The next sweep plans the issuer again (its snapshot did not move), so nothing is lost.
 */
const DETERMINISTIC: ReadonlySet<PollFailureCause> = new Set([
  'bad-request',
  'schema',
  'too-large',
  'wrong-issuer',
  'status-echo',
  'backwards',
  'partial',
  'corrupt-snapshot',
]);

/** True when retrying the poll before the next sweep would only spend budget. */
export function isDeterministic(cause: PollFailureCause): boolean {
  return DETERMINISTIC.has(cause);
}

/** Words for a cause, for notices and `status`. */
export const CAUSE_TEXT: Record<PollFailureCause, string> = {
  'bad-request': 'the upstream answers 400 (bad request)',
  schema: 'the upstream answers bodies that do not match the documented schema',
  server: 'the upstream answers 5xx',
  timeout: 'the upstream does not answer in time',
  network: 'the upstream cannot be reached',
  'too-large': 'the upstream answers bodies larger than upstream.maxBodyBytes',
  'unexpected-status': 'the upstream answers an undocumented status',
  'wrong-issuer': 'the upstream answers for another issuer',
  'status-echo': 'the upstream ignores the status=active filter',
  backwards: 'the upstream answers data older than what shortwatch already holds (a stale cache?)',
  partial: 'the upstream answers one page of several (pagination shortwatch does not follow)',
  'corrupt-snapshot':
    'the stored snapshot cannot be read; `shortwatch resume ISSUER` starts it afresh (silently re-baselined)',
  internal: 'shortwatch itself failed (see the log)',
};

/** What decides when a failed poll's issuer is asked again. */
export interface NextTryInputs {
  /** The job is failed with a retriable error (a possible blip), not ended. */
  blip: boolean;
  /** Attempts the job had made before this one, and may make in all. */
  attemptsMade: number;
  attempts: number;
  /** The job's exponential backoff's first delay (ms). */
  jobBackoffMs: number;
  /** The issuer's health backoff: when the sweep plans it again. */
  healthRetryAt: number | undefined;
  nowMs: number;
}

/**
 * When a failed poll's issuer is asked again: the job's own retry while the failure may be a blip and
 * attempts are left (at the latest: BullMQ's jitter only shortens it), else the health backoff's time.
 */
export function nextPollTry(inputs: NextTryInputs): number | undefined {
  const { blip, attemptsMade, attempts, jobBackoffMs, healthRetryAt, nowMs } = inputs;
  if (blip && attemptsMade + 1 < attempts) return nowMs + jobBackoffMs * 2 ** attemptsMade;
  return healthRetryAt;
}
