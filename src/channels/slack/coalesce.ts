import { messageForGroups } from '../coalesced-message.js';
import { largestFitting } from '../largest-fitting.js';
import type { IssuerEvents } from '../types.js';
import { renderSlack, type SlackRenderOptions } from './render.js';

/** Whether the first `count` groups render as exactly one Slack payload. */
function fitsOnePayload(
  groups: readonly IssuerEvents[],
  count: number,
  options: SlackRenderOptions,
): boolean {
  return renderSlack(messageForGroups(groups.slice(0, count)), options).length === 1;
}

/**
 * How many leading groups one Slack message carries: the largest k whose message renders as exactly one
 * payload, and at least 1, as a lone issuer too big for one payload still has to go (in parts).
 */
export function coalesceSlack(groups: readonly IssuerEvents[], options: SlackRenderOptions = {}): number {
  if (groups.length <= 1) return groups.length;
  // 50 blocks cap a batch near 25 issuers, so the gallop stays short.
  return largestFitting(groups.length, (k) => fitsOnePayload(groups, k, options));
}
