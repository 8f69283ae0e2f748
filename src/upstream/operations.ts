import { wellFormed } from '../text/well-formed.js';
import type { PositionStatus } from './schemas.js';

/** The two operations of the upstream service. */
export type UpstreamOperation = 'issuers' | 'positions';

/** Encodes one path segment; `.` and `..` are escaped too, so no proxy can resolve them as dot-segments. */
export function encodePathSegment(segment: string): string {
  const encoded = encodeURIComponent(wellFormed(segment));
  return /^\.+$/.test(encoded) ? encoded.replaceAll('.', '%2E') : encoded;
}

/** Path of the issuer list operation. */
export function issuersPath(): string {
  return '/issuers';
}

/** Path and query of the positions operation for one issuer. */
export function positionsPath(issuerId: string, status: PositionStatus): string {
  return `/issuers/${encodePathSegment(issuerId)}/positions?status=${status}`;
}
