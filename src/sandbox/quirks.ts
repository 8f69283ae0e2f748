import { DAY_MS, HOUR_MS } from '../time/units.js';
import { type Answer, type PositionsBody, positionsBody, requestedStatus } from './answers.js';
import type { Scenario } from './scenario.js';
import { schemaBreaking } from './schema-breaking.js';

/**
 * Odd but well-formed ways a positions answer can differ from the truth, each one a point the spec
 * leaves open (issue 11). They reshape a 200 positions answer only; see {@link Quirk}.
 */
export const QUIRKS = [
  'null-last-updated',
  'lagging-last-updated',
  'backwards-last-updated',
  'wrong-issuer',
  'status-all',
  'paginated',
  'vanish',
  'strings-for-numbers',
] as const;

/**
 * One quirk of a positions answer (a `FaultSpec.quirk`):
 * - `null-last-updated`: `last_updated: null`.
 * - `lagging-last-updated`: `last_updated` one hour older than the dataset's (the issuer list's).
 * - `backwards-last-updated`: a stale cache node: `last_updated` one day older, and the rows the issuer
 *   had before the scenario's latest change to it (`Scenario.previous`); the current rows when the
 *   scenario has not changed the issuer since it was created or loaded.
 * - `wrong-issuer`: the answer for the next issuer of the list (by id, wrapping round), its `issuer`
 *   object and rows; unchanged when the scenario has a single issuer.
 * - `status-all`: `status: 'all'` and the full history, whatever was asked.
 * - `paginated`: `next` (the URL of page 2), `total` (every row) and `has_more: true`, with only the
 *   first half of the rows (rounded up). A request for page 2 that the quirk also applies to gets the
 *   rest, `has_more: false` and no `next`; otherwise the service ignores `page`, as any unknown parameter.
 * - `vanish`: `data: []`: every holder gone from this one answer.
 * - `strings-for-numbers`: values as strings, the same as `body: 'schema'` (an empty list gains one
 *   such row, so the body never validates).
 * A `last_updated` that is null stays null.
 */
export type Quirk = (typeof QUIRKS)[number];

/** The positions request whose answer a quirk reshapes. */
export interface QuirkRequest {
  scenario: Scenario;
  issuerId: string;
  query: URLSearchParams;
  /** The absolute URL of the request, without its query (for `next`). */
  url: string;
}

function earlier(lastUpdated: string | null, ms: number): string | null {
  return lastUpdated === null ? null : new Date(Date.parse(lastUpdated) - ms).toISOString();
}

/** The id after `issuerId` in the scenario's list, wrapping round. */
function nextIssuerId(scenario: Scenario, issuerId: string): string {
  const ids = scenario.issuers().map((issuer) => issuer.svc_issuer_id);
  return ids[(ids.indexOf(issuerId) + 1) % ids.length] ?? issuerId;
}

function paginated(body: PositionsBody, request: QuirkRequest): Record<string, unknown> {
  const total = body.data.length;
  const firstPage = Math.ceil(total / 2);
  if (request.query.get('page') === '2') {
    return { ...body, data: body.data.slice(firstPage), total, has_more: false };
  }
  const next = `${request.url}?${new URLSearchParams({ status: body.status, page: '2' })}`;
  return { ...body, data: body.data.slice(0, firstPage), next, total, has_more: true };
}

function reshape(quirk: Quirk, body: PositionsBody, request: QuirkRequest): unknown {
  const { scenario, issuerId } = request;
  switch (quirk) {
    case 'null-last-updated':
      return { ...body, last_updated: null };
    case 'lagging-last-updated':
      return { ...body, last_updated: earlier(body.last_updated, HOUR_MS) };
    case 'backwards-last-updated':
      return {
        ...body,
        data: scenario.previous(issuerId, body.status) ?? body.data,
        last_updated: earlier(body.last_updated, DAY_MS),
      };
    case 'wrong-issuer':
      return positionsBody(scenario, nextIssuerId(scenario, issuerId), body.status) ?? body;
    case 'status-all':
      return { ...body, status: 'all', data: scenario.all(issuerId) ?? body.data };
    case 'paginated':
      return paginated(body, request);
    case 'vanish':
      return { ...body, data: [] };
    case 'strings-for-numbers':
      return schemaBreaking({ status: 200, body }, 'positions');
  }
}

/** The answer with the quirk applied; any answer but a 200 positions answer is returned unchanged. */
export function quirkAnswer(quirk: Quirk, normal: Answer, request: QuirkRequest): Answer {
  if (normal.status !== 200) return normal;
  const status = requestedStatus(request.query);
  const body = status && positionsBody(request.scenario, request.issuerId, status);
  if (!body) return normal;
  return { ...normal, body: reshape(quirk, body, request) };
}
