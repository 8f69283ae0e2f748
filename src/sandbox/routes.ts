/** What a request path addresses. */
export type Route =
  | { operation: 'issuers' }
  | { operation: 'positions'; issuerId: string }
  | { operation: 'other'; malformed?: boolean };

/**
 * Matches a raw (percent-encoded) path. The id segment is decoded on its own, so an id holding
 * `/` arrives as `%2F` and stays one segment.
 */
export function matchRoute(rawPath: string): Route {
  const segments = rawPath.split('/');
  if (segments.length === 2 && segments[1] === 'issuers') return { operation: 'issuers' };
  const encoded = segments[2];
  if (
    segments.length !== 4 ||
    segments[1] !== 'issuers' ||
    segments[3] !== 'positions' ||
    encoded === undefined
  ) {
    return { operation: 'other' };
  }
  try {
    return { operation: 'positions', issuerId: decodeURIComponent(encoded) };
  } catch {
    return { operation: 'other', malformed: true };
  }
}
