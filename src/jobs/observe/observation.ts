import { type DiffResult, diffPositions, type Snapshot } from '../../positions/index.js';
import type { IssuerPosition } from '../../upstream/schemas.js';

/**
 * What one source shows for one issuer at one time: its named positions. The API's issuer id is its
 * key; a register's is the ISIN (or `lei:…`), qualified by the source in event ids.
 */
export interface IssuerObservation {
  /** `sources[].name`; absent for the upstream API. */
  source?: string;
  key: string;
  name: string;
  rows: readonly IssuerPosition[];
  /** The version the source gave: the dataset's `last_updated`, a register's publication date. */
  version: string | null;
  at: Date;
}

/** How observations are read against a snapshot (the config's `poll` section, or a new register issuer). */
export interface ObserveOptions {
  thresholds: number[];
  onFirstSeen: 'baseline' | 'alert';
}

/**
 * The events of an observation against the issuer's snapshot, through the one diff. A register's
 * event ids are qualified by its source (two registers listing one ISIN never share one) while its
 * events name the issuer by its key, so filters, mutes and the event log follow it across sources.
 */
export function diffObserved(
  observation: IssuerObservation,
  previous: Snapshot | null,
  options: ObserveOptions,
): DiffResult {
  const { source, key, name } = observation;
  const diff = diffPositions({
    previous,
    issuer: { id: source === undefined ? key : `${source}:${key}`, name },
    rows: [...observation.rows],
    lastUpdated: observation.version,
    now: observation.at,
    thresholds: options.thresholds,
    onFirstSeen: options.onFirstSeen,
  });
  if (source === undefined) return diff;
  const events = diff.events.map((event) => ({ ...event, issuer: { id: key, name }, source }));
  return { ...diff, events };
}
