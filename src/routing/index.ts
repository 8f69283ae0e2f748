export { crosses, type FilterResult, matchFilter, peakValue } from './filter.js';
export { holderMatches, issuerMatches, issuerNameKey } from './match-keys.js';
export { InvalidMuteError, isInvalidMuteError } from './mute-error.js';
export { isMuted, type Mute, type MuteRequest, type MuteScope, muteKey, muteSchema } from './mutes.js';
export { type DeliveryPlan, planDelivery } from './plan-delivery.js';
export { quietUntil } from './quiet-hours.js';
export {
  type Disposition,
  dispositionOf,
  explainRoute,
  OPS_CHANNEL_SKIP,
  type RoutedGroup,
  type RouteOptions,
  type RouteVerdict,
  routeEvents,
  routeOptionsOf,
  type Suppressed,
} from './route.js';
export { type SyntheticEventInput, syntheticEvent } from './synthetic-event.js';
export { recordFallsTold } from './told-record.js';
export {
  addDays,
  type CalendarDate,
  type LocalDateTime,
  offsetAt,
  type Weekday,
  weekdayOf,
  type ZonedParts,
  zonedParts,
  zonedTimeToInstant,
} from './zoned-time.js';
