import { holderKey } from '../positions/holder-key.js';
import { holderMatches } from '../routing/match-keys.js';
import type { RegisterSnapshot } from '../sources/types.js';
import type { EventLog } from '../state/event-log.js';
import type { SnapshotStore } from '../state/snapshot-store.js';
import { editDistance } from '../text/edit-distance.js';

// Which holders exist, for judging a holders filter or a holder mute. Every source that names holders
// counts: the positions of every watched issuer's snapshot (today's holders), the holders the snapshots
// remember (fallen below the threshold), the holders of the event log (closed positions too), and the
// registers' files (every holder of every issuer a register lists, watched or not: a fund is one across
// registers). The upstream has no holder list, and asking it for every issuer's positions would spend the
// budget, so its holders are known once polled. A fresh deployment knows the registers' holders (read
// once at `check` and `start`, see reference-check.ts) and, without registers, nobody.

/** A holder this deployment has seen: its key (what filters and mutes match) and a display name. */
export interface KnownHolder {
  key: string;
  name: string;
}

/** How many of the newest logged events are read for their holders: the global log's usual size. */
const EVENTS_READ = 5_000;

/** The stored reads of the register sources: the last good read of each, by source name. */
export interface StoredRegisters {
  lastSnapshot(source: string): Promise<{ snapshot: RegisterSnapshot } | null>;
}

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

/** Every holder a register's read names, across all its issuers (a history file's rows too). Pure. */
export function registerHolders(snapshot: RegisterSnapshot): KnownHolder[] {
  const byKey = new Map<string, string>();
  for (const issuer of snapshot.issuers) {
    for (const position of [...issuer.positions, ...(issuer.history ?? [])])
      if (!byKey.has(position.holderKey)) byKey.set(position.holderKey, position.holder);
  }
  return [...byKey].map(([key, name]) => ({ key, name }));
}

/** The register sources' stored reads, by name; a source never read well is left out. */
export async function storedRegisterReads(
  registers: StoredRegisters,
  sources: readonly string[],
): Promise<Map<string, RegisterSnapshot>> {
  const reads = new Map<string, RegisterSnapshot>();
  for (const source of sources) {
    const stored = await registers.lastSnapshot(source);
    if (stored !== null) reads.set(source, stored.snapshot);
  }
  return reads;
}

/** Known holders of several sources as one list, one per holder key (the first name seen kept). */
export function mergeHolders(...lists: readonly (readonly KnownHolder[])[]): KnownHolder[] {
  const byKey = new Map<string, KnownHolder>();
  for (const list of lists)
    for (const holder of list) if (!byKey.has(holder.key)) byKey.set(holder.key, holder);
  return [...byKey.values()];
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
