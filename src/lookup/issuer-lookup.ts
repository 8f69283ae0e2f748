import { displayText } from '../channels/format.js';
import {
  closestNames,
  isWholeDirectory,
  normaliseName,
  resolveWatchlist,
  type WatchlistSetting,
  watchEntries,
} from '../jobs/watchlist.js';
import type { IssuerDirectory } from '../state/directory.js';
import type { Issuer } from '../upstream/schemas.js';
import { LookupError } from './lookup-error.js';

/** What an issuer typed on the command line is looked up in. */
export interface IssuerSources {
  /** The issuer list last saved (by a sweep or `shortwatch issuers`); null before the first. */
  directory: readonly Issuer[] | null;
  watchlist: WatchlistSetting;
}

/** The issuer list the sweeps saved (none before the first) and the configured watchlist. */
export async function issuerSources(
  directory: Pick<IssuerDirectory, 'load'>,
  watchlist: WatchlistSetting,
): Promise<IssuerSources> {
  return { directory: (await directory.load())?.issuers ?? null, watchlist };
}

/** An issuer the user named, and what the argument was recognised as. */
export interface NamedIssuer {
  id: string;
  /** The upstream's name when the issuer list has it; else the watchlist's name, or the id. */
  name: string;
  via: 'id' | 'name' | 'label' | 'partial';
}

/**
 * Finds the issuer a user names, as the watchlist binds names: an id or a name (case and spacing
 * ignored) of the saved issuer list, or a watchlist entry's id, name or label; with `partial`, also a
 * part of exactly one listed name (`acme` for `Acme plc`). Anything else is a {@link LookupError} naming the
 * closest issuers, so no upstream request is spent on a name that would answer 404.
 */
export function lookupIssuer(
  argument: string,
  sources: IssuerSources,
  options: { partial?: boolean } = {},
): NamedIssuer {
  const directory = sources.directory ?? [];
  const wanted = normaliseName(argument);
  const byId = directory.find((issuer) => issuer.svc_issuer_id === argument.trim());
  if (byId) return named(byId, 'id');
  const byName = directory.filter((issuer) => normaliseName(issuer.name) === wanted);
  if (byName.length > 1) throw severalIssuers(argument, byName);
  if (byName[0]) return named(byName[0], 'name');
  const watched = fromWatchlist(argument, sources);
  if (watched) return watched;
  if (options.partial && wanted !== '') {
    const parts = directory.filter((issuer) => normaliseName(issuer.name).includes(wanted));
    if (parts.length > 1) throw severalIssuers(argument, parts);
    if (parts[0]) return named(parts[0], 'partial');
  }
  throw unknownIssuer(argument, sources);
}

/** True when the watchlist binds this issuer, so the daemon polls it. */
export function isWatched(issuer: { id: string; name: string }, sources: IssuerSources): boolean {
  if (sources.directory !== null) {
    return resolveWatchlist(sources.watchlist, sources.directory).watched.some((w) => w.id === issuer.id);
  }
  // No issuer list yet: under `all` every issuer is watched; a name entry can only be compared by name.
  if (isWholeDirectory(sources.watchlist)) return true;
  return sources.watchlist.some((entry) =>
    'id' in entry ? entry.id === issuer.id : normaliseName(entry.name) === normaliseName(issuer.name),
  );
}

function named(issuer: Issuer, via: NamedIssuer['via']): NamedIssuer {
  return { id: issuer.svc_issuer_id, name: issuer.name, via };
}

/** The watchlist entry whose id, name or label the argument is, bound to its issuer. */
function fromWatchlist(argument: string, sources: IssuerSources): NamedIssuer | undefined {
  const wanted = normaliseName(argument);
  for (const entry of watchEntries(sources.watchlist)) {
    const isEntry = 'id' in entry ? entry.id === argument.trim() : normaliseName(entry.name) === wanted;
    const isLabel = entry.label !== undefined && normaliseName(entry.label) === wanted;
    if (!isEntry && !isLabel) continue;
    const via = isEntry ? ('id' in entry ? 'id' : 'name') : 'label';
    if ('id' in entry) {
      const listed = sources.directory?.find((issuer) => issuer.svc_issuer_id === entry.id);
      return { id: entry.id, name: listed?.name ?? entry.id, via };
    }
    // A name entry without an issuer list: its name stands for the issuer, as routing compares names.
    if (sources.directory === null) return { id: entry.name, name: entry.name, via };
    const [bound] = resolveWatchlist([entry], sources.directory).watched;
    if (bound) return { id: bound.id, name: bound.name, via };
  }
  return undefined;
}

function severalIssuers(argument: string, issuers: readonly Issuer[]): LookupError {
  const shown = issuers.slice(0, 10).map((i) => `${displayText(i.name)} (${displayText(i.svc_issuer_id)})`);
  const more = issuers.length > shown.length ? ` and ${issuers.length - shown.length} more` : '';
  return new LookupError(
    `"${displayText(argument)}" names several issuers: ${shown.join(', ')}${more}; give the id or the whole name`,
  );
}

function unknownIssuer(argument: string, sources: IssuerSources): LookupError {
  const what = `no issuer "${displayText(argument)}"`;
  if (sources.directory === null) {
    const entries = isWholeDirectory(sources.watchlist)
      ? 'all: the whole directory'
      : sources.watchlist.map((e) => displayText('id' in e ? e.id : e.name)).join(', ') || 'empty';
    return new LookupError(
      `${what} on the watchlist (${entries}), and no issuer list is saved yet to look it up in: the daemon's first sweep or \`shortwatch issuers\` saves one`,
    );
  }
  const closest = closestNames(argument, sources.directory).map(displayText);
  return new LookupError(
    `${what} in the issuer list or the watchlist; closest: ${closest.join(', ') || 'none'}`,
  );
}
