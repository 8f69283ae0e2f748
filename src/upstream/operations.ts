import type { PositionStatus } from './schemas.js';

/** The two operations of the upstream service. */
export type UpstreamOperation = 'issuers' | 'positions';

// Lone surrogates make encodeURIComponent throw; replace them as WHATWG URL does.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Encodes one path segment; `.` and `..` are escaped too, so no proxy can resolve them as dot-segments. */
export function encodePathSegment(segment: string): string {
  const encoded = encodeURIComponent(segment.replace(LONE_SURROGATE, '\uFFFD'));
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
