import { messageForGroups } from "../coalesced-message.js";
import { largestFitting } from "../largest-fitting.js";
import { renderTeamsParts } from "./render.js";
const DELIVERY_ID_STAND_IN = `d-${"0".repeat(8)}-${"0".repeat(24)}`;
function fitsOneCard(groups, count, options) {
  const message = messageForGroups(groups.slice(0, count));
  return renderTeamsParts(message, { ...options, deliveryId: DELIVERY_ID_STAND_IN }).length === 1;
}
function coalesceTeams(groups, options = {}) {
  if (groups.length <= 1) return groups.length;
  return largestFitting(groups.length, (k) => fitsOneCard(groups, k, options));
}
export {
  coalesceTeams
};
