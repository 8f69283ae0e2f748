import type { App } from '../app.js';
import { displayText } from '../channels/format.js';
import { resolveWatchlist } from '../jobs/watchlist.js';
import { holderKey, holderQueryMatches } from '../positions/index.js';
import { closestHolders, isKnownHolder, readKnownHolders } from '../preflight/known-holders.js';
import { CliError, EXIT } from './exit.js';
import { issuerSources } from './issuer-lookup.js';

/**
 * Refuses a holder the user named (`shortwatch mute holder`, the console's mute form) that matches no
 * holder this deployment stored (preflight/known-holders.ts: the watched issuers' snapshots and the event
 * log), naming the closest: a mute of a misspelt holder silences nothing and says nothing. A usage error.
 */
export async function requireKnownHolder(app: App, argument: string): Promise<void> {
  // The watchlist bound by the saved issuer list: a command's settings bind none (only a daemon's do).
  const { directory, watchlist } = await issuerSources(app);
  const watched = resolveWatchlist(watchlist, directory).watched.map((issuer) => issuer.id);
  const known = await readKnownHolders(app.ctx, watched);
  if (isKnownHolder(argument, known)) return;
  const what = `no holder "${displayText(argument)}"`;
  if (known.length === 0) {
    throw new CliError(
      `${what}: no snapshot or event is stored yet to look it up in (the daemon's first sweep stores them)`,
      EXIT.usage,
    );
  }
  const closest = closestHolders(argument, known).map(displayText);
  throw new CliError(
    `${what} in the snapshots or the event log; closest: ${closest.join(', ') || 'none'}`,
    EXIT.usage,
  );
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
