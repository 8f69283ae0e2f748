import type { RegisterKind } from '../config/schema/sources.js';

/** One holder's disclosed net short position in one issuer, as a register lists it. */
export interface NamedPosition {
  /** The holder's name as the register spells it (trimmed). */
  holder: string;
  /** `holderKey(holder)`: one holder across spellings and registers. */
  holderKey: string;
  /** Net short position in % of the issued share capital (1.1 = 1.1%). */
  percent: number;
  /** Position date, `YYYY-MM-DD`. */
  date: string;
  /** When the holder notified the position (`YYYY-MM-DD`), where the register says (Austria). */
  reportedOn?: string;
  /** The holder's LEI, where the register gives one (France). */
  holderLei?: string;
}

/** A register's sum of every position in one issuer from `thresholdPercent` up (no holder named). */
export interface IssuerAggregate {
  percent: number;
  /** `YYYY-MM-DD`: the date the register gives the aggregate (its latest constituent position). */
  date: string;
  /** The smallest position the sum counts (Sweden 0.1%, UK ANSP 0.2%, Norway 0.5%). */
  thresholdPercent: number;
}

/** A past aggregate value of a historic file, keyed by its position date. */
export interface AggregatePoint {
  date: string;
  percent: number;
  /** When the value stopped being current (UK historic ANSP), `YYYY-MM-DD`. */
  endedOn?: string;
}

/** One issuer as one register file lists it. */
export interface RegisterIssuer {
  /** Identity within the register: the ISIN, or `lei:<LEI>` where the register gives no ISIN. */
  key: string;
  isin?: string;
  lei?: string;
  name: string;
  /** Latest position per holder (by holder key), highest first. */
  positions: NamedPosition[];
  aggregate?: IssuerAggregate;
  /** Every row of a history file for this issuer, oldest first. */
  history?: NamedPosition[];
  /** Past aggregate values (historic files), oldest first. */
  aggregateHistory?: AggregatePoint[];
  /**
   * Named positions in the company's other shares that its one aggregate also counts (Sweden: the
   * aggregate is per company, positions per ISIN), so "aggregate minus named" subtracts them too.
   */
  namedElsewhere?: number;
  /** The ISINs of those other shares: a watchlist naming one of them follows the company's aggregate. */
  otherIsins?: string[];
}

/** What one register file says, read whole: the input of every diff. */
export interface RegisterSnapshot {
  kind: RegisterKind;
  /** `positions`: named holders (and aggregates); `scope`: a list of shares in scope, no values. */
  content: 'positions' | 'scope';
  /** Issuers sorted by key. */
  issuers: RegisterIssuer[];
  /** Data rows read: the measure the shrink check compares. */
  rows: number;
  /** Publication date the file states, `YYYY-MM-DD`, when it states one. */
  publishedOn?: string;
  /** True when the register names holders: only then is "aggregate minus named" meaningful. */
  namesHolders: boolean;
  /** The smallest position the register's aggregates count, where it publishes aggregates. */
  aggregateThreshold?: number;
}

/** A file decoded into rows of cells, one list per sheet (a CSV is one sheet). */
export interface DecodedTable {
  sheets: { name: string; rows: Cell[][] }[];
}

/** A cell: text from CSV, or a number / text / boolean from a spreadsheet; null when empty. */
export type Cell = string | number | boolean | null;

/** The validators of the last file read, sent back so an unchanged file costs a 304. */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

/** What the last good read of one file left: its validators (for the conditional GET) and its row count. */
export interface FileRead {
  validators: Validators;
  rows: number;
}

/** What the last good read left; `companion` is the second file of a source read as a pair (Sweden's aggregate). */
export interface LastRead extends FileRead {
  companion?: FileRead;
}
