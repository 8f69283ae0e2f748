import type { IssuerEvents } from '../types.js';

/** Most events in one POST: keeps bodies far below common request-size limits of receivers. */
export const MAX_EVENTS_PER_POST = 100;

/** As many leading groups as keep the events of one POST within {@link MAX_EVENTS_PER_POST}, at least 1. */
export function coalesceWebhook(groups: readonly IssuerEvents[]): number {
  let events = 0;
  let count = 0;
  for (const group of groups) {
    events += group.events.length;
    if (count > 0 && events > MAX_EVENTS_PER_POST) break;
    count++;
  }
  return count;
}
