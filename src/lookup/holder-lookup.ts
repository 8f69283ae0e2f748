import { displayText } from '../channels/format.js';
import { resolveWatchlist, type WatchlistSetting } from '../jobs/watchlist.js';
import { holderKey, holderQueryMatches } from '../positions/index.js';
import { closestHolders, isKnownHolder, readKnownHolders } from '../preflight/known-holders.js';
import type { IssuerDirectory } from '../state/directory.js';
import type { EventLog } from '../state/event-log.js';
import type { SnapshotStore } from '../state/snapshot-store.js';
import { issuerSources } from './issuer-lookup.js';
import { LookupError } from './lookup-error.js';

/** The stores a holder name is checked against. */
export interface HolderStores {
  directory: Pick<IssuerDirectory, 'load'>;
  snapshots: SnapshotStore;
  eventLog: EventLog;
}

/**
 * Checks a holder the user named (`shortwatch mute holder`, the console's mute form) against the holders
 * this deployment stored (preflight/known-holders.ts), as filters are checked: one close to a stored holder
 * but matching none is a misspelling, refused with the closest (a mute of it would silence nothing and say
 * nothing); one close to none may be a holder that has not disclosed yet, which a desk may mute ahead, so it
 * is accepted with the returned note (a misspelling is a {@link LookupError}). Undefined: the holder is known.
 */
export async function checkHolderName(
  stores: HolderStores,
  watchlistSetting: WatchlistSetting,
  argument: string,
): Promise<string | undefined> {
  // The watchlist bound by the saved issuer list: a command's settings bind none (only a daemon's do).
  const { directory, watchlist } = await issuerSources(stores.directory, watchlistSetting);
  const watched = resolveWatchlist(watchlist, directory).watched.map((issuer) => issuer.id);
  const known = await readKnownHolders(stores, watched);
  if (isKnownHolder(argument, known)) return undefined;
  const what = `holder "${displayText(argument)}"`;
  if (known.length === 0) return `no snapshot or event is stored yet to check ${what} against`;
  const closest = closestHolders(argument, known).map(displayText);
  if (closest.length === 0)
    return `${what} matches no holder stored yet, nor any close to it (not disclosed yet?)`;
  throw new LookupError(`no ${what} in the snapshots or the event log; closest: ${closest.join(', ')}`);
}

/** A typed holder read against the holders shortwatch knows for an issuer. */
export type HolderLookup =
  | { kind: 'known'; name: string }
  | { kind: 'unknown'; name: string }
  | { kind: 'ambiguous'; names: string[] };

/**
 * Which known holder a typed name means, by the matching the console's searches use: one fund (one
 * entity key) is that fund's name as the register spells it; several are ambiguous; none leaves the
 * typed name as it is (a holder the issuer has not listed yet).
 */
export function lookupHolder(typed: string, known: readonly string[]): HolderLookup {
  const byKey = new Map<string, string>();
  for (const name of known) if (holderQueryMatches(typed, name)) byKey.set(holderKey(name), name);
  const names = [...byKey.values()];
  const [only] = names;
  if (only !== undefined && names.length === 1) return { kind: 'known', name: only };
  if (names.length > 1) return { kind: 'ambiguous', names: names.sort() };
  return { kind: 'unknown', name: typed };
}
