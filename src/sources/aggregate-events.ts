import type { RegisterKind } from '../config/schema/sources.js';

/** The issuer an aggregate event is about, as the register names it. */
export interface AggregateIssuerRef {
  register: RegisterKind;
  /** The register's key: the ISIN, or `lei:<LEI>`. */
  key: string;
  isin?: string;
  lei?: string;
  name: string;
  /** The company's other shares, which its one aggregate also counts (Sweden). */
  otherIsins?: string[];
}

/** An aggregate value with its date. */
export interface AggregateValue {
  percent: number;
  date: string;
}

interface AggregateBase {
  issuer: AggregateIssuerRef;
  /** The smallest position the aggregate counts: never compare a 0.1% sum with a 0.5% one. */
  thresholdPercent: number;
}

/** An issuer's aggregate appeared (first published, or back after an end). */
export interface AggregateEntered extends AggregateBase {
  kind: 'aggregate-entered';
  to: AggregateValue;
}

/** An issuer's aggregate is no longer published (or fell to 0). */
export interface AggregateEnded extends AggregateBase {
  kind: 'aggregate-ended';
  from: AggregateValue;
}

/** An issuer's aggregate moved; `changePp` in percentage points. */
export interface AggregateChanged extends AggregateBase {
  kind: 'aggregate-changed';
  from: AggregateValue;
  to: AggregateValue;
  changePp: number;
}

/** An aggregate passed a configured level: `up` when now at or above it, `down` when now below. */
export interface AggregateCrossed extends AggregateBase {
  kind: 'aggregate-crossed';
  from: AggregateValue;
  to: AggregateValue;
  level: number;
  direction: 'up' | 'down';
}

/** A past aggregate value (same position date) differs between two reads of a history. */
export interface AggregateRevised extends AggregateBase {
  kind: 'aggregate-revised';
  date: string;
  fromPercent: number;
  toPercent: number;
  changePp: number;
}

/**
 * The short interest below the public threshold (aggregate minus the named positions, never below 0)
 * moved by at least the configured amount.
 */
export interface BelowThresholdMoved extends AggregateBase {
  kind: 'below-threshold-moved';
  fromPercent: number;
  toPercent: number;
  changePp: number;
  /** The two terms of the new value. */
  aggregatePercent: number;
  namedPercent: number;
  /** The threshold of the named positions (Sweden: 0.5%); hidden positions lie between the two. */
  namedFromPercent: number;
}

/** A share joined or left a scope list (the FCA's Reportable Shares List). */
export interface ScopeChanged {
  kind: 'scope-added' | 'scope-removed';
  issuer: AggregateIssuerRef;
}

/** Every event the aggregate diff emits. */
export type AggregateEvent =
  | AggregateEntered
  | AggregateEnded
  | AggregateChanged
  | AggregateCrossed
  | AggregateRevised
  | BelowThresholdMoved
  | ScopeChanged;
