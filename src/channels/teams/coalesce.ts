import { messageForGroups } from '../coalesced-message.js';
import { largestFitting } from '../largest-fitting.js';
import type { IssuerEvents } from '../types.js';
import { renderTeamsParts, type TeamsRenderOptions } from './render.js';

// Coalesced messages carry event delivery ids (src/state/delivery-ids.ts), all this long: measured with a
// stand-in of the same length, a card that fits here fits with its real id.
const DELIVERY_ID_STAND_IN = `d-${'0'.repeat(8)}-${'0'.repeat(24)}`;

/** Whether the first `count` groups render as exactly one card. */
function fitsOneCard(groups: readonly IssuerEvents[], count: number, options: TeamsRenderOptions): boolean {
  const message = messageForGroups(groups.slice(0, count));
  return renderTeamsParts(message, { ...options, deliveryId: DELIVERY_ID_STAND_IN }).length === 1;
}

/**
 * How many leading groups one Teams message carries: the largest k whose message renders as exactly one
 * card, and at least 1, as a lone issuer too big for one card still has to go (in parts).
 */
export function coalesceTeams(groups: readonly IssuerEvents[], options: TeamsRenderOptions = {}): number {
  if (groups.length <= 1) return groups.length;
  return largestFitting(groups.length, (k) => fitsOneCard(groups, k, options));
}
