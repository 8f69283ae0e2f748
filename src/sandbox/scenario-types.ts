/** Options of a generated scenario; everything derives from `seed`. */
export interface ScenarioOptions {
  seed: number;
  /** Number of issuers; default 12. */
  issuers?: number;
  /** First simulated day, `YYYY-MM-DD`; default '2026-01-05'. */
  start?: string;
  /** Share of active positions changed per step (at least one change a step); default `DEFAULT_CHANGE_RATE`. */
  changeRate?: number;
  /** Active holders of an ordinary issuer, [min, max]; default: drawn as a real register shows them (register-shape.ts). */
  holdersPerIssuer?: [number, number];
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
