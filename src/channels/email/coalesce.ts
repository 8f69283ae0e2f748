import type { IssuerEvents } from '../types.js';

/**
 * One issuer per e-mail: the subject stays specific, a later change can thread one issuer's alerts per
 * day, and e-mail's rate is not what builds a backlog.
 */
export function coalesceEmail(groups: readonly IssuerEvents[]): number {
  return Math.min(1, groups.length);
}
