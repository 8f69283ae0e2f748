const MAX_EVENTS_PER_POST = 100;
function coalesceWebhook(groups) {
  let events = 0;
  let count = 0;
  for (const group of groups) {
    events += group.events.length;
    if (count > 0 && events > MAX_EVENTS_PER_POST) break;
    count++;
  }
  return count;
}
export {
  MAX_EVENTS_PER_POST,
  coalesceWebhook
};
