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

function positions(scenario: Scenario, issuerId: string, query: URLSearchParams): Answer {
  const given = query.getAll('status');
  const status = given.length === 0 ? 'active' : given.length === 1 ? given[0] : undefined;
  if (status !== 'active' && status !== 'all') return { status: 400, body: INVALID_STATUS };
  const issuer = scenario.issuer(issuerId);
  const data = status === 'active' ? scenario.active(issuerId) : scenario.all(issuerId);
  if (!issuer || !data) return { status: 404, body: ISSUER_NOT_FOUND };
  return { status: 200, body: { issuer, status, data, last_updated: scenario.lastUpdated() } };
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
