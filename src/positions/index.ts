export {
  collapseRows,
  crossed,
  type DiffInput,
  type DiffResult,
  diffPositions,
  totalShort,
} from './diff.js';
export { type EventIdParts, eventId, FIRST_SIGHT, snapshotOccurrence } from './event-id.js';
export { holderKey } from './holder-key.js';
export { holderQueryMatches } from './holder-match.js';
export { round4 } from './round.js';
export { positionEventSchema, snapshotSchema } from './schemas.js';
export {
  type Disclosure,
  EVENT_KINDS,
  type EventKind,
  type HeldPosition,
  type HistorySummary,
  type PositionEvent,
  type Snapshot,
  type WatchRecord,
} from './types.js';
