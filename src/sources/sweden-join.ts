import { holderKey } from '../positions/holder-key.js';
import { round4 } from '../positions/round.js';
import { snapshotOf } from './snapshot.js';
import type { RegisterIssuer, RegisterSnapshot } from './types.js';

/** FI's aggregate sums every position from 0.1%. */
export const SE_AGGREGATE_THRESHOLD = 0.1;

/**
 * FI's two files as one register: named positions by ISIN (from 0.5%) and one aggregate per company by
 * LEI (from 0.1%). They share no identifier, so they meet on the company's name (normalised like a
 * holder key). Each aggregate then sits beside its company's named positions, and "aggregate minus
 * named" is the interest below the public threshold.
 *
 * The aggregate diff matches issuers by key, so these rules keep an aggregate's identity stable:
 * - An aggregate stays under the key it had in `previous` (by LEI): a company whose last named holder
 *   leaves keeps its ISIN key, and one first seen without holders keeps its `lei:` key when a holder
 *   appears. Without this, either move would be told as an aggregate ended and another entered.
 * - A company with several shares (Ericsson A and B) has one aggregate: it goes to one share (the key
 *   it had, else the lowest ISIN), the others' named positions are its `namedElsewhere` and their
 *   ISINs its `otherIsins` (a watchlist naming the B share follows the company's aggregate too).
 * - Every aggregate is kept, also of two companies that share a name.
 */
export function joinSwedish(
  current: RegisterSnapshot,
  aggregates: RegisterSnapshot,
  previous?: RegisterSnapshot,
): RegisterSnapshot {
  const issuers = new Map(current.issuers.map((issuer) => [issuer.key, { ...issuer }]));
  const shares = sharesByCompany(current.issuers);
  const companies = aggregates.issuers.filter((company) => company.aggregate !== undefined);
  const homes = homesOf(companies, shares, keysByLei(previous));
  for (const [index, company] of companies.entries()) {
    const home = homes[index] ?? { key: company.key };
    // A share another company of the same name is homed on is that company's, never this one's.
    const own = (shares.get(holderKey(company.name)) ?? []).filter(
      (share) => share.key === home.key || !homes.some((other) => other.key === share.key),
    );
    const joined: RegisterIssuer = issuers.get(home.key) ?? {
      ...home,
      name: own[0]?.name ?? company.name,
      positions: [],
    };
    if (company.lei !== undefined) joined.lei = company.lei;
    // An aggregate kept under its LEI still names its share, so a watchlist by ISIN follows it.
    const isin = joined.isin ?? own[0]?.isin;
    if (isin !== undefined) joined.isin = isin;
    joined.aggregate = company.aggregate;
    const others = own.filter((share) => share.key !== home.key);
    const elsewhere = namedSum(others);
    if (elsewhere > 0) joined.namedElsewhere = elsewhere;
    const otherIsins = others.flatMap((share) => (share.isin === undefined ? [] : [share.isin]));
    if (otherIsins.length > 0) joined.otherIsins = otherIsins;
    issuers.set(home.key, joined);
  }
  return snapshotOf('se-fi-current', [...issuers.values()], current.rows, {
    aggregateThreshold: SE_AGGREGATE_THRESHOLD,
  });
}

/**
 * Where each company's aggregate goes, by index: the key it had in the last read, else its name's
 * lowest share when no other company holds that share, else its own `lei:` key. Kept keys are placed
 * first, so a company new to the file never takes the share another one kept.
 */
function homesOf(
  companies: readonly RegisterIssuer[],
  shares: ReadonlyMap<string, RegisterIssuer[]>,
  keptKey: ReadonlyMap<string, { key: string; isin?: string }>,
): { key: string; isin?: string }[] {
  const kept = companies.map((company) => (company.lei === undefined ? undefined : keptKey.get(company.lei)));
  const homed = new Set(kept.flatMap((home) => (home === undefined ? [] : [home.key])));
  return companies.map((company, index) => {
    const home = kept[index];
    if (home !== undefined) return home;
    const share = shares.get(holderKey(company.name))?.[0];
    // Two companies of one name (Karnov AB has two LEIs in the real file): the second keeps its own key.
    if (share === undefined || homed.has(share.key)) return { key: company.key };
    homed.add(share.key);
    return share;
  });
}

/** The positions file's shares by company name, lowest ISIN first. */
function sharesByCompany(issuers: readonly RegisterIssuer[]): Map<string, RegisterIssuer[]> {
  const byName = new Map<string, RegisterIssuer[]>();
  for (const issuer of [...issuers].sort((a, b) => a.key.localeCompare(b.key))) {
    const name = holderKey(issuer.name);
    byName.set(name, [...(byName.get(name) ?? []), issuer]);
  }
  return byName;
}

/** Where each company's aggregate was in the last joined read, by LEI. */
function keysByLei(previous: RegisterSnapshot | undefined): Map<string, { key: string; isin?: string }> {
  const byLei = new Map<string, { key: string; isin?: string }>();
  for (const issuer of previous?.issuers ?? []) {
    if (issuer.lei === undefined || issuer.aggregate === undefined) continue;
    byLei.set(
      issuer.lei,
      issuer.isin === undefined ? { key: issuer.key } : { key: issuer.key, isin: issuer.isin },
    );
  }
  return byLei;
}

function namedSum(shares: readonly RegisterIssuer[]): number {
  return round4(shares.flatMap((share) => share.positions).reduce((sum, p) => sum + p.percent, 0));
}
