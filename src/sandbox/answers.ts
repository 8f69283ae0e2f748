import type { Issuer, IssuerPosition } from '../upstream/schemas.js';
import {
  INVALID_STATUS,
  ISSUER_NOT_FOUND,
  MALFORMED_PATH,
  METHOD_NOT_ALLOWED,
  ROUTE_NOT_FOUND,
} from './error-bodies.js';
import type { Route } from './routes.js';
import type { Scenario } from './scenario.js';

/** The service's answer before any fault: a status and a JSON value. */
export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** The `status` a positions request asks for. */
export type PositionStatus = 'active' | 'all';

/** A positions answer's body, as the service sends it. */
export interface PositionsBody {
  issuer: Issuer;
  status: PositionStatus;
  data: IssuerPosition[];
  last_updated: string | null;
}

/** The `status` query parameter: `active` when absent; undefined when invalid or repeated. */
export function requestedStatus(query: URLSearchParams): PositionStatus | undefined {
  const given = query.getAll('status');
  const status = given.length === 0 ? 'active' : given.length === 1 ? given[0] : undefined;
  return status === 'active' || status === 'all' ? status : undefined;
}

/** The body of a 200 positions answer for one issuer; undefined for an unknown issuer. */
export function positionsBody(
  scenario: Scenario,
  issuerId: string,
  status: PositionStatus,
): PositionsBody | undefined {
  const issuer = scenario.issuer(issuerId);
  const data = status === 'active' ? scenario.active(issuerId) : scenario.all(issuerId);
  if (!issuer || !data) return undefined;
  return { issuer, status, data, last_updated: scenario.lastUpdated() };
}

function positions(scenario: Scenario, issuerId: string, query: URLSearchParams): Answer {
  const status = requestedStatus(query);
  if (!status) return { status: 400, body: INVALID_STATUS };
  const body = positionsBody(scenario, issuerId, status);
  return body ? { status: 200, body } : { status: 404, body: ISSUER_NOT_FOUND };
}

/** Answers an authenticated, unthrottled request from the scenario. */
export function answer(scenario: Scenario, route: Route, method: string, query: URLSearchParams): Answer {
  if (route.operation === 'other') {
    return route.malformed ? { status: 400, body: MALFORMED_PATH } : { status: 404, body: ROUTE_NOT_FOUND };
  }
  if (method !== 'GET') return { status: 405, body: METHOD_NOT_ALLOWED, headers: { allow: 'GET' } };
  if (route.operation === 'issuers') {
    return { status: 200, body: { data: scenario.issuers(), last_updated: scenario.lastUpdated() } };
  }
  return positions(scenario, route.issuerId, query);
}
