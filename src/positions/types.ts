/** What happened to one holder's position between two polls. */
export type EventKind = 'opened' | 'increased' | 'decreased' | 'closed';

/** All event kinds, in display order. */
export const EVENT_KINDS: readonly EventKind[] = ['opened', 'increased', 'decreased', 'closed'];

/** A disclosed value (% of issued capital) on a date. */
export interface Disclosure {
  value: number;
  date: string;
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
}

/** One change of one holder's position in one issuer. Serialisable as JSON. */
export interface PositionEvent {
  /** Deterministic hash of issuer, holder key, kind, previous and current disclosure. */
  id: string;
  kind: EventKind;
  issuer: { id: string; name: string };
  holderKey: string;
  holder: string;
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
  /** When shortwatch detected the change (ISO 8601). */
  detectedAt: string;
}
