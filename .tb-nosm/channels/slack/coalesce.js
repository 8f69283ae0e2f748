import { messageForGroups } from "../coalesced-message.js";
import { largestFitting } from "../largest-fitting.js";
import { renderSlack } from "./render.js";
function fitsOnePayload(groups, count, options) {
  return renderSlack(messageForGroups(groups.slice(0, count)), options).length === 1;
}
function coalesceSlack(groups, options = {}) {
  if (groups.length <= 1) return groups.length;
  return largestFitting(groups.length, (k) => fitsOnePayload(groups, k, options));
}
export {
  coalesceSlack
};
