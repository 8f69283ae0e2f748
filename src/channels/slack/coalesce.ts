import { messageForGroups } from '../coalesced-message.js';
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
  // From k = 2 on, a larger k only adds entries, so "fits" holds up to some k and never after: gallop to
  // bracket that k with small, cheap renders (50 blocks cap a batch near 25 issuers), then bisect.
  let fits = 1;
  let tooMany = groups.length + 1;
  for (let probe = 2; probe < tooMany; probe *= 2) {
    if (fitsOnePayload(groups, probe, options)) fits = probe;
    else tooMany = probe;
  }
  while (tooMany - fits > 1) {
    const middle = Math.floor((fits + tooMany) / 2);
    if (fitsOnePayload(groups, middle, options)) fits = middle;
    else tooMany = middle;
  }
  return fits;
}
