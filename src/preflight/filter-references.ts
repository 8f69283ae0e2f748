import { displayText } from '../channels/format.js';
import type { ConfigIssue } from '../config/config-error.js';
import type { Config } from '../config/schema.js';
import { closestNames } from '../jobs/watchlist.js';
import { HolderIdentities } from '../positions/holder-identity.js';
import { issuerMatches } from '../routing/match-keys.js';
import { looksLikeIsin } from '../sources/values.js';
import type { Issuer } from '../upstream/index.js';
import { closestHolders, isKnownHolder, type KnownHolder } from './known-holders.js';

// A filter entry that names nothing never matches an event: the channel (or digest) silently receives
// nothing of that issuer or holder. These checks find the misspelling before it costs an alert.

/** One entry of one filter list, with its key path (`channels[2].filter.issuers[0]`). */
interface FilterEntry {
  path: string;
  value: string;
}

function entriesOf(config: Config, list: 'issuers' | 'holders' | 'excludeHolders'): FilterEntry[] {
  return config.channels.flatMap((channel, index) =>
    (channel.filter[list] ?? []).map((value, at) => ({
      path: `channels[${index}].filter.${list}[${at}]`,
      value,
    })),
  );
}

/** True when a channel filter names an issuer, which only the issuer directory can confirm. */
export function filtersNameIssuers(config: Config): boolean {
  return entriesOf(config, 'issuers').length > 0;
}

/**
 * Each filter issuer (an id or a name, as routing compares them) the upstream's issuer list does not
 * have, with the closest names. An empty list proves nothing (the upstream answered with no issuers, or
 * none is known yet): then nothing is reported. Pure.
 */
export function filterIssuerIssues(config: Config, directory: readonly Issuer[]): ConfigIssue[] {
  if (directory.length === 0) return [];
  const issuers = directory.map((issuer) => ({ id: issuer.svc_issuer_id, name: issuer.name }));
  return entriesOf(config, 'issuers').flatMap(({ path, value }) => {
    if (issuers.some((issuer) => issuerMatches(value, issuer))) return [];
    if (namesRegisterIssuer(config, value)) return [];
    const closest = closestNames(value, directory).map(displayText);
    const message = `issuer "${displayText(value)}" is not in the upstream's issuer list, so this filter never matches it; closest: ${closest.join(', ') || 'none'}`;
    return [{ path, message }];
  });
}

/**
 * True when a filter entry may name an issuer of a register source: register events name issuers by
 * ISIN, known only once the file is read, so an ISIN or an entry of a source's watchlist is not refused.
 */
function namesRegisterIssuer(config: Config, value: string): boolean {
  if (config.sources.length === 0) return false;
  if (looksLikeIsin(value)) return true;
  return config.sources.some(
    (source) =>
      source.watchlist !== 'all' &&
      source.watchlist.some((entry) => issuerMatches(entry, { id: value, name: value })),
  );
}

/** What the holder lists of the filters say against the holders this deployment knows. */
export interface HolderReview {
  /** Entries near a known holder but matching none: misspellings, refused like any config problem. */
  issues: ConfigIssue[];
  /** Entries near no known holder: maybe a holder that has not disclosed yet; told, not refused. */
  warnings: ConfigIssue[];
}

/**
 * Each `holders` and `excludeHolders` entry that matches no known holder (see holder-sources.ts). One close
 * to a known holder is a misspelling and an issue; one close to none may be a holder that has never
 * disclosed a position on a watched issuer (a desk waiting for a fund to appear), so it is a warning.
 * With no holder known at all (nothing polled yet) nothing can be judged and nothing is reported. Pure.
 */
export function filterHolderReview(config: Config, known: readonly KnownHolder[]): HolderReview {
  const review: HolderReview = { issues: [], warnings: [] };
  if (known.length === 0) return review;
  const entries = [...entriesOf(config, 'holders'), ...entriesOf(config, 'excludeHolders')];
  // An LEI or a holder of the alias table is declared by the operator: one holder across registers.
  const identities = new HolderIdentities(config.holders.aliases);
  for (const { path, value } of entries) {
    if (isKnownHolder(value, known) || identities.declares(value)) continue;
    const closest = closestHolders(value, known).map(displayText);
    const what = `holder "${displayText(value)}" matches no holder in the snapshots, the event log or the registers' files`;
    if (closest.length > 0) review.issues.push({ path, message: `${what}; closest: ${closest.join(', ')}` });
    else review.warnings.push({ path, message: `${what}, nor any close to it (not disclosed yet?)` });
  }
  return review;
}
