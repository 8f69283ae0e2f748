/** What happened to one holder's position between two polls. */
export type EventKind = 'opened' | 'increased' | 'decreased' | 'closed';

/** All event kinds, in display order. */
export const EVENT_KINDS: readonly EventKind[] = ['opened', 'increased', 'decreased', 'closed'];

/** A disclosed value (% of issued capital) on a date. */
export interface Disclosure {
  value: number;
  date: string;
  /** When the holder filed it (`YYYY-MM-DD`), where a register says: a late filing is told with both dates. */
  reportedOn?: string;
}

/** A holder's position as kept in a snapshot. */
export interface HeldPosition extends Disclosure {
  /** Display name: the latest spelling reported. */
  holder: string;
}

/** The last observed active positions of one issuer, keyed by holder key. */
export interface Snapshot {
  issuerId: string;
  issuerName: string;
  positions: Record<string, HeldPosition>;
  /** The dataset version (the issuer list's `last_updated`) this snapshot was polled for. */
  lastUpdated: string | null;
  /**
   * The positions answer's own `last_updated`, kept to reject an answer older than this one (a stale
   * cache node). Absent in snapshots written before it was recorded.
   */
  upstreamUpdated?: string | null;
  polledAt: string;
  /**
   * How many snapshots of this issuer were committed before this one plus one: the occurrence events
   * of the next diff are identified by (event-id.ts). Absent (0) in snapshots written before it was kept.
   */
  generation?: number;
  /**
   * What shortwatch remembers of holders beyond their current position (threshold-story.ts), by holder
   * key. Absent in snapshots written before it was kept, and when there is nothing to remember.
   */
  memory?: Record<string, HolderMemory>;
  /**
   * What shortwatch counted of the issuer's changes, for its change rate (src/schedule/change-rate.ts).
   * Absent in snapshots written before it was kept.
   */
  watch?: WatchRecord;
  /** The issuer's `status=all` history, summed up by the poll that fetched it, once per issuer. */
  history?: HistorySummary;
}

/** Polls that found events since shortwatch first saw the issuer. */
export interface WatchRecord {
  /** The first snapshot's `polledAt` (or, for a snapshot written before the record, that snapshot's). */
  since: string;
  /** Polls since then whose diff found events (polls, not events: one refresh is one change). */
  changes: number;
}

/** A `status=all` history as change-rate evidence: changes over the days it covers, and when fetched. */
export interface HistorySummary {
  changes: number;
  days: number;
  at: string;
}

/** One holder's memory: a fall below the disclosure threshold, its last crossing, a hold in progress. */
export interface HolderMemory {
  /**
   * The holder fell below the threshold: the disclosure date it did, when shortwatch saw it, and, while
   * the position is still listed below it, the channels that took that fall (sent, deferred or staged),
   * written by the same commit and kept until the position closes or reopens. Without `toldTo` (a
   * closed position, or memory kept before channels were recorded) no channel counts as told.
   */
  below?: { date: string; at: string; toldTo?: string[] };
  /** When the holder last crossed the threshold (either way), while it may still start a flap. */
  lastCrossing?: string;
  /** Changes of this holder are held for one message until `until` (a flap). */
  hold?: EventHold;
}

/** A run of rapid changes of one holder, told in one message when it ends. */
export interface EventHold {
  since: string;
  until: string;
}

/**
 * How an event reads against the 0.5% public disclosure threshold: `fell-below` is told once;
 * `below-confirmed` is the later disappearance from the register of a holder already told to be below;
 * `back-above` is a return within the reopen window. Absent for a move that stays on one side.
 */
export type ThresholdStory =
  | { kind: 'fell-below' }
  /** `toldTo`: the channels told the fall (absent: none, whatever wrote the memory). */
  | { kind: 'below-confirmed'; fellBelowOn: string; toldTo?: string[] }
  | { kind: 'back-above'; fellBelowOn: string; daysBelow: number };

/** Changes of the same issuer a channel leaves out (its filter or a mute), for the totals to say so. */
export interface HiddenChanges {
  count: number;
  /** Sum of their changes in percentage points. */
  delta: number;
}

/** The kinds of issuer-aggregate and scope events a register raises (src/sources/aggregate-events.ts). */
export type AggregateKind =
  | 'aggregate-entered'
  | 'aggregate-ended'
  | 'aggregate-changed'
  | 'aggregate-crossed'
  | 'aggregate-revised'
  | 'below-threshold-moved'
  | 'scope-added'
  | 'scope-removed'
  | 'named-holders-ended';

/**
 * What an event read from a register's issuer aggregate or scope list says beyond a holder's change. The
 * event's "holder" is then the aggregate itself ("Aggregate of positions from 0.1%"), so filters, mutes,
 * routing and every renderer handle it like a holder's change, and its values are never read against the
 * 0.5% disclosure threshold.
 */
export interface AggregateFacts {
  kind: AggregateKind;
  /** The smallest position the aggregate counts: never compare a 0.1% sum with a 0.5% one. Absent for scope events. */
  thresholdPercent?: number;
  /** `aggregate-crossed`: which way the levels in `thresholdsCrossed` were crossed. */
  direction?: 'up' | 'down';
  /** `aggregate-revised`: the position date whose published value changed. */
  revisedDate?: string;
  /** `below-threshold-moved`: the aggregate and the named sum it was computed from. */
  aggregatePercent?: number;
  namedPercent?: number;
  /** `named-holders-ended`: how many named holders the register no longer publishes. */
  namedHolders?: number;
}

/** One change of one holder's position in one issuer. Serialisable as JSON. */
export interface PositionEvent {
  /** Deterministic hash of where it was observed (issuer, holder key, the snapshot moved from) and what (event-id.ts). */
  id: string;
  kind: EventKind;
  issuer: { id: string; name: string };
  holderKey: string;
  holder: string;
  /** The holder's LEI, where the register gives it (France): the holder's identity (holder-identity.ts). */
  holderLei?: string;
  /** Before the change; null for `opened`. */
  previous: Disclosure | null;
  /** After the change; null for `closed` (the position fell below the disclosure threshold). */
  current: Disclosure | null;
  /** For `closed`: the last value disclosed in the full history, when it could be fetched. */
  final?: Disclosure;
  /** Change in percentage points, rounded to 4 decimals (closed: minus the previous value). */
  delta: number;
  /** Configured position thresholds crossed by the change, ascending. */
  thresholdsCrossed: number[];
  /** The issuer's aggregate disclosed short (sum of active values) before and after the poll. */
  issuerTotal: { before: number; after: number };
  /**
   * When shortwatch detected the change (ISO 8601): when it first saw the fact, whatever date the
   * register gives it (a late filing is seen long after its position date). `--as-of` answers by it.
   */
  detectedAt: string;
  /** The register source (`sources[].name`) the change was read from; absent: the upstream API. */
  source?: string;
  /** Present on an issuer-aggregate or scope event of a register: what it says (never a threshold story). */
  aggregate?: AggregateFacts;
  /** The event against the 0.5% disclosure threshold (not part of the id: derived from memory). */
  story?: ThresholdStory;
  /** Set while the holder flaps: human channels hold the change until the hold ends. */
  hold?: EventHold;
  /**
   * Only on a channel's copy (outbox, digest staging): the changes of this issuer in the same poll that
   * this channel does not show, so its total can say what it includes.
   */
  hidden?: HiddenChanges;
}
