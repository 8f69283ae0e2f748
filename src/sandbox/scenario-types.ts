/** Options of a generated scenario; everything derives from `seed`. */
export interface ScenarioOptions {
  seed: number;
  /** Number of issuers; default 12. */
  issuers?: number;
  /** First simulated day, `YYYY-MM-DD`; default '2026-01-05'. With publications, the day the warm-up ends. */
  start?: string;
  /** Share of active positions changed per step (at least one change a step); default `DEFAULT_CHANGE_RATE`. */
  changeRate?: number;
  /** Active holders of an ordinary issuer, [min, max]; default: drawn as a real register shows them (register-shape.ts). */
  holdersPerIssuer?: [number, number];
  /**
   * Put the register on a publication schedule: each issuer changes at its own rate (drawn from the
   * distribution fitted to a real register, so crowded names change far more often) and the changes
   * appear together when the dataset is published. The sandbox server publishes on its clock.
   */
  publications?: PublicationOptions;
}

/** When a register on a publication schedule refreshes; see `ScenarioOptions.publications`. */
export interface PublicationOptions {
  /**
   * Length of a day, ms (default 86,400,000): the time of day is measured on day windows of this length,
   * aligned on its multiples like the rate limits, so a test can scale the clock (a 60 s "day").
   * Windows falling on Saturday or Sunday (counted from the epoch, a Thursday) have no publication.
   */
  dayMs?: number;
  /** Local time of day of each publication, `HH:MM`; default '15:30'. */
  at?: string;
  /** IANA time zone of `at`, summer time included (the date's offset); default 'Europe/Amsterdam'. */
  timeZone?: string;
  /** Publications to make before the data stays still; default no end. */
  count?: number;
  /**
   * Business days of changes made before the register is served (dated the weekdays up to `start`), so
   * that its dates and histories reflect each issuer's rate; default 250, about a year.
   */
  warmUpDays?: number;
}

/** One refresh of a register on a publication schedule: when, and every change it made. */
export interface Publication {
  /** When it was applied, by the sandbox clock (epoch ms): `last_updated` moved to this instant. */
  at: number;
  lastUpdated: string;
  /** The simulated business day its disclosures are dated. */
  date: string;
  /** Its changes, as a diff of each issuer's active list before and after shows them. */
  changes: ScenarioChange[];
}

/** The kind of a change, as the daemon's diff names it. */
export type ScenarioChangeKind = 'opened' | 'increased' | 'decreased' | 'closed';

/** One change of one holder's position, as seen in the active lists before and after a step. */
export interface ScenarioChange {
  issuerId: string;
  /** Display name: the latest spelling (before the change for `closed`). */
  holder: string;
  holderKey: string;
  kind: ScenarioChangeKind;
  from: number | null;
  to: number | null;
}
