import { holderKey } from '../positions/holder-key.js';
import { holderMatches } from '../routing/match-keys.js';
import type { EventLog } from '../state/event-log.js';
import type { SnapshotStore } from '../state/snapshot-store.js';
import { editDistance } from '../text/edit-distance.js';

// Which holders exist, for judging a holders filter or a holder mute. The upstream has no holder list, and
// asking it for every issuer's positions would spend the budget, so the source is what this deployment
// stored: the positions of every watched issuer's snapshot (today's holders), the holders the snapshots
// remember (fallen below the threshold), and the holders of the event log (closed positions too). A holder
// none of them has is unknown here, which for a new deployment (nothing polled yet) is every holder.

/** A holder this deployment has seen: its key (what filters and mutes match) and a display name. */
export interface KnownHolder {
  key: string;
  name: string;
}

/** How many of the newest logged events are read for their holders: the global log's usual size. */
const EVENTS_READ = 5_000;

/** The holders the watched issuers' snapshots and the event log know, one per holder key. */
export async function readKnownHolders(
  stores: { snapshots: SnapshotStore; eventLog: EventLog },
  issuerIds: readonly string[],
): Promise<KnownHolder[]> {
  const byKey = new Map<string, string>();
  const { snapshots } = await stores.snapshots.readMany(issuerIds);
  for (const snapshot of snapshots.values()) {
    for (const [key, position] of Object.entries(snapshot.positions)) byKey.set(key, position.holder);
  }
  for (const event of await stores.eventLog.recent({ limit: EVENTS_READ })) {
    if (!byKey.has(event.holderKey)) byKey.set(event.holderKey, event.holder);
  }
  for (const snapshot of snapshots.values()) {
    for (const key of Object.keys(snapshot.memory ?? {})) if (!byKey.has(key)) byKey.set(key, key);
  }
  return [...byKey].map(([key, name]) => ({ key, name }));
}

/** True when some known holder is the one `entry` names (by holder key, a prefix counting, as routing matches). */
export function isKnownHolder(entry: string, known: readonly KnownHolder[]): boolean {
  return known.some((holder) => holderMatches(entry, holder.key));
}

/**
 * Up to three known holders a misspelt `entry` may have meant: compared by holder key with the start of
 * each known key (a filter entry matches a key's prefix, so `Marshal Wace` is meant for `Marshall Wace
 * LLP`), at most a fifth of the entry wrong, and none that is not close.
 */
export function closestHolders(entry: string, known: readonly KnownHolder[], count = 3): string[] {
  const target = holderKey(entry);
  if (target === '') return [];
  // Stricter than issuer names: holder names share long suffixes (`capital llp`, `associates lp`), so a
  // fifth of the key, at least two edits, keeps a new holder from looking like a misspelt old one.
  const allowed = Math.max(2, Math.floor(target.length / 5));
  return known
    .map((holder) => ({
      holder,
      near: Math.min(
        editDistance(target, holder.key.slice(0, target.length)),
        editDistance(target, holder.key),
      ),
    }))
    .filter(({ near }) => near <= allowed)
    .sort((a, b) => a.near - b.near || a.holder.name.localeCompare(b.holder.name))
    .slice(0, count)
    .map(({ holder }) => holder.name);
}
