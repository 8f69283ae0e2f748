import {
  collapseRows,
  crossed,
  diffPositions,
  totalShort
} from "./diff.js";
import { eventId, FIRST_SIGHT, snapshotOccurrence } from "./event-id.js";
import { holderKey } from "./holder-key.js";
import { holderQueryMatches } from "./holder-match.js";
import { round4 } from "./round.js";
import { positionEventSchema, snapshotSchema } from "./schemas.js";
import {
  EVENT_KINDS
} from "./types.js";
export {
  EVENT_KINDS,
  FIRST_SIGHT,
  collapseRows,
  crossed,
  diffPositions,
  eventId,
  holderKey,
  holderQueryMatches,
  positionEventSchema,
  round4,
  snapshotOccurrence,
  snapshotSchema,
  totalShort
};
