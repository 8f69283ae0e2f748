import { displayText } from '../channels/format.js';
import type { Config } from '../config/schema.js';
import { resolveWatchlist } from '../jobs/watchlist.js';
import { holderKey, holderQueryMatches } from '../positions/index.js';
import { gatherHolders, type HolderStores as KnownHolderStores } from '../preflight/holder-sources.js';
import { closestHolders, isKnownHolder } from '../preflight/known-holders.js';
import type { IssuerDirectory } from '../state/directory.js';
import type { EventLog } from '../state/event-log.js';
import type { RedisClient } from '../state/redis-connection.js';
import { RegisterStore } from '../state/register-store.js';
import type { SnapshotStore } from '../state/snapshot-store.js';
import { issuerSources } from './issuer-lookup.js';
import { LookupError } from './lookup-error.js';

/** The stores a holder name is checked against: the issuer list, the snapshots, events and registers' reads. */
export interface HolderStores extends KnownHolderStores {
  directory: Pick<IssuerDirectory, 'load'>;
}

/** The stores of a process's context a holder is checked against, with the registers' stored reads. */
export function holderStores(ctx: {
  directory: Pick<IssuerDirectory, 'load'>;
  snapshots: SnapshotStore;
  eventLog: EventLog;
  redis: RedisClient;
  prefix: string;
}): HolderStores {
  const { directory, snapshots, eventLog } = ctx;
  return { directory, snapshots, eventLog, registers: new RegisterStore(ctx.redis, ctx.prefix) };
}

/**
 * Checks a holder the user named (`shortwatch mute holder`, the console's mute form) against every holder
 * this deployment knows (preflight/holder-sources.ts: the snapshots, the event log and the registers'
 * stored reads), as filters are checked: one close to a known holder but matching none is a misspelling,
 * refused with the closest (a mute of it would silence nothing and say nothing). One close to none may be
 * a holder that has not disclosed yet, which a desk may mute ahead from the CLI (accepted with the
 * returned note); `strict` refuses it too (the console, where a click must not silence nobody). With no
 * holder known at all nothing can be judged: accepted with a note. Undefined: the holder is known.
 */
export async function checkHolderName(
  stores: HolderStores,
  config: Pick<Config, 'watchlist' | 'sources' | 'upstream'>,
  argument: string,
  options: { strict?: boolean } = {},
): Promise<string | undefined> {
  // The watchlist bound by the saved issuer list: a command's settings bind none (only a daemon's do).
  const { directory, watchlist } = await issuerSources(stores.directory, config.watchlist);
  const watched = resolveWatchlist(watchlist, directory).watched.map((issuer) => issuer.id);
  const { holders: known } = await gatherHolders(config, stores, watched);
  if (isKnownHolder(argument, known)) return undefined;
  const what = `holder "${displayText(argument)}"`;
  if (known.length === 0) return `no snapshot, event or register read is stored yet to check ${what} against`;
  const closest = closestHolders(argument, known).map(displayText);
  const where = "the snapshots, the event log or the registers' files";
  if (closest.length > 0) throw new LookupError(`no ${what} in ${where}; closest: ${closest.join(', ')}`);
  if (options.strict)
    throw new LookupError(`no ${what} in ${where}, nor any close to it (${known.length} holders known)`);
  return `${what} matches no holder stored yet, nor any close to it (not disclosed yet?)`;
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
