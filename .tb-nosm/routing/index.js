import { crosses, matchFilter, peakValue } from "./filter.js";
import { holderMatches, issuerMatches, issuerNameKey } from "./match-keys.js";
import { InvalidMuteError, isInvalidMuteError } from "./mute-error.js";
import { isMuted, muteKey, muteSchema } from "./mutes.js";
import { planDelivery } from "./plan-delivery.js";
import { quietUntil } from "./quiet-hours.js";
import {
  dispositionOf,
  explainRoute,
  OPS_CHANNEL_SKIP,
  routeEvents,
  routeOptionsOf
} from "./route.js";
import { syntheticEvent } from "./synthetic-event.js";
import { recordFallsTold } from "./told-record.js";
import {
  addDays,
  offsetAt,
  weekdayOf,
  zonedParts,
  zonedTimeToInstant
} from "./zoned-time.js";
export {
  InvalidMuteError,
  OPS_CHANNEL_SKIP,
  addDays,
  crosses,
  dispositionOf,
  explainRoute,
  holderMatches,
  isInvalidMuteError,
  isMuted,
  issuerMatches,
  issuerNameKey,
  matchFilter,
  muteKey,
  muteSchema,
  offsetAt,
  peakValue,
  planDelivery,
  quietUntil,
  recordFallsTold,
  routeEvents,
  routeOptionsOf,
  syntheticEvent,
  weekdayOf,
  zonedParts,
  zonedTimeToInstant
};
