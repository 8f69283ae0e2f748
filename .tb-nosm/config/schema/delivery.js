import { z } from "zod";
import { duration } from "./value-types.js";
const deliverySchema = z.strictObject({
  maxRetryAfter: duration.prefault("1h").describe(
    "Longest pause a channel takes for a 429 `Retry-After` (Slack, Teams, webhooks). A longer one is cut to this, logged and told by the `channel-retry-after-capped-<channel>` notice: a receiver asking for a year must not silence a channel for a year."
  ),
  claimGrace: duration.prefault("60s").describe(
    "How long a channel's lease holder leaves a message another process claimed after that process's delivery path last beat (Redis' clock): a process cut off from Redis may have sent it and records it once Redis answers. A Redis outage or failover shorter than this repeats nothing; a process killed inside a send holds its channel this long, then its message is sent again under the same delivery id."
  ),
  stalledAfter: duration.prefault("15m").describe(
    "Age of a channel's oldest undelivered message (waiting since it became ready, or in flight since it was claimed) past which the channel counts as stalled: `/readyz` answers 503 naming it, `status` says so, and the `channel-stalled-<channel>` notice is raised until it moves again. Parked messages do not count (they have their own notice)."
  )
}).describe(
  "Bounds on every channel: how long a 429 may pause it, and when a backlog that does not move is a problem."
);
export {
  deliverySchema
};
