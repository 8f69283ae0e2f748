import type { Snapshot } from '../positions/index.js';
import type { PositionsResponse } from '../upstream/index.js';
import { ImplausibleAnswerError } from './poll-failure.js';

/** Envelope keys that say an answer is one page of several, whatever their spelling. */
const PAGE_MARKERS = [
  'next',
  'next_page',
  'has_more',
  'hasMore',
  'total',
  'total_count',
  'page',
  'pages',
  'cursor',
];

/**
 * Checks a positions 200 before anything is diffed: the issuer and status it echoes, that it is not older
 * than the answer the snapshot was built from (a stale cache node would flap reverse alerts), and that it
 * is not visibly one page of several (closing the holders on page 2 would be false alerts). Throws
 * {@link ImplausibleAnswerError}; returns the unknown envelope keys of an answer that passed (to report).
 */
export function checkAnswer(
  response: PositionsResponse,
  asked: { issuerId: string },
  previous: Snapshot | null,
): string[] {
  if (response.issuer.svc_issuer_id !== asked.issuerId) {
    throw new ImplausibleAnswerError(
      'wrong-issuer',
      `asked for ${asked.issuerId}, the answer is for ${response.issuer.svc_issuer_id}`,
    );
  }
  if (response.status !== 'active') {
    throw new ImplausibleAnswerError(
      'status-echo',
      `asked for status=active, the answer says ${response.status}`,
    );
  }
  const seen = previous?.upstreamUpdated;
  if (seen && response.last_updated !== null && Date.parse(response.last_updated) < Date.parse(seen)) {
    throw new ImplausibleAnswerError(
      'backwards',
      `the answer's last_updated ${response.last_updated} is older than ${seen}, which the snapshot holds`,
    );
  }
  const extra = response.extra ?? {};
  if (isPartial(extra, response.data.length)) {
    const shown = PAGE_MARKERS.filter((key) => key in extra).join(', ');
    throw new ImplausibleAnswerError('partial', `the answer looks like one page of several (${shown})`);
  }
  return Object.keys(extra);
}

function isPartial(extra: Record<string, unknown>, rows: number): boolean {
  const { next, next_page, has_more, hasMore, total, total_count, cursor } = extra;
  if (has_more === true || hasMore === true) return true;
  if (isSet(next) || isSet(next_page) || isSet(cursor)) return true;
  const count = typeof total === 'number' ? total : typeof total_count === 'number' ? total_count : undefined;
  return count !== undefined && count > rows;
}

const isSet = (value: unknown) => value !== undefined && value !== null && value !== '' && value !== false;
