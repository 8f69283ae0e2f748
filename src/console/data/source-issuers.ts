import type { RegisterSourceConfig } from '../../config/schema/sources.js';
import { isWatched } from '../../jobs/registers/register-diff.js';
import { round4 } from '../../positions/round.js';
import { DISCLOSURE_THRESHOLD } from '../../positions/threshold-story.js';
import { hidden } from '../../sources/aggregate-diff.js';
import type { IssuerAggregate, RegisterIssuer, RegisterSnapshot } from '../../sources/types.js';

/** One issuer of one register as the console lists it: its aggregate, its named sum, what lies below. */
export interface SourceIssuerRow {
  /** The register's key: an ISIN, or `lei:<LEI>`. */
  key: string;
  name: string;
  aggregate?: IssuerAggregate;
  named: { count: number; sum: number };
  /**
   * Aggregate minus the named positions (floored at 0): the short interest below the public threshold,
   * where the register names holders and its aggregate counts from under 0.5% (one from 0.5% counts what
   * the named positions count). Undefined otherwise.
   */
  below?: number;
}

/** Whether an aggregate counts positions under the public threshold (Sweden's from 0.1%; not Norway's from 0.5%). */
export function countsBelowPublic(aggregate: Pick<IssuerAggregate, 'thresholdPercent'> | undefined): boolean {
  return aggregate !== undefined && aggregate.thresholdPercent < DISCLOSURE_THRESHOLD;
}

/** An issuer of a kept read as a row (pure). */
export function sourceIssuerRow(issuer: RegisterIssuer, namesHolders: boolean): SourceIssuerRow {
  const sum = round4(issuer.positions.reduce((total, p) => total + p.percent, 0));
  const under = namesHolders && countsBelowPublic(issuer.aggregate) ? hidden(issuer) : undefined;
  return {
    key: issuer.key,
    name: issuer.name,
    ...(issuer.aggregate ? { aggregate: issuer.aggregate } : {}),
    named: { count: issuer.positions.length, sum },
    ...(under ? { below: under.hidden } : {}),
  };
}

/**
 * The issuers of a kept read that the source watches, largest aggregate first, then largest named sum,
 * then by name (pure). Aggregates of one register share their threshold, so sorting them compares like
 * with like.
 */
export function watchedRows(
  snapshot: RegisterSnapshot,
  watchlist: RegisterSourceConfig['watchlist'],
): SourceIssuerRow[] {
  return snapshot.issuers
    .filter((issuer) => isWatched(watchlist, issuer))
    .map((issuer) => sourceIssuerRow(issuer, snapshot.namesHolders))
    .sort(
      (a, b) =>
        (b.aggregate?.percent ?? -1) - (a.aggregate?.percent ?? -1) ||
        b.named.sum - a.named.sum ||
        a.name.localeCompare(b.name),
    );
}
