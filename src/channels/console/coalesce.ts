import type { IssuerEvents } from '../types.js';

/** Every group: a JSON line has no size limit worth keeping to. */
export function coalesceConsole(groups: readonly IssuerEvents[]): number {
  return groups.length;
}
