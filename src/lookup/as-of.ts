import { type IssuerAsOf, positionsAsOf } from '../positions/as-of.js';
import type { Snapshot } from '../positions/types.js';
import type { EventLog } from '../state/event-log.js';
import type { RegisterStore } from '../state/register-store.js';
import type { SnapshotStore } from '../state/snapshot-store.js';

/** What an as-of answer reads: the stores and the event log's per-issuer cap (`poll.eventsKept`). */
export interface AsOfStores {
  snapshots: SnapshotStore;
  registers: RegisterStore;
  eventLog: EventLog;
  eventsKept: number;
}

/** One issuer of one source as shortwatch had seen it at a time. */
export interface IssuerSeen extends IssuerAsOf {
  key: string;
  name: string;
  /** The register source; absent for the upstream API. */
  source?: string;
}

/** The issuer's positions of one source at `atMs`, from its snapshot now and its logged events. */
async function issuerSeen(
  stores: AsOfStores,
  snapshot: Snapshot,
  key: string,
  source: string | undefined,
  atMs: number,
): Promise<IssuerSeen> {
  const logged = await stores.eventLog.recent({ issuerId: key, limit: stores.eventsKept });
  // Two registers listing one ISIN share its stream: each answers from its own events.
  const events = logged.filter((e) => e.source === source);
  const answer = positionsAsOf({ snapshot, events, trimmed: logged.length >= stores.eventsKept }, atMs);
  return { key, name: snapshot.issuerName, ...(source === undefined ? {} : { source }), ...answer };
}

/** An upstream issuer (by id) as shortwatch had seen it at `atMs`; null when it has no snapshot. */
export async function upstreamIssuerSeen(
  stores: AsOfStores,
  issuerId: string,
  atMs: number,
): Promise<IssuerSeen | null> {
  const snapshot = (await stores.snapshots.readMany([issuerId])).snapshots.get(issuerId);
  return snapshot === undefined ? null : issuerSeen(stores, snapshot, issuerId, undefined, atMs);
}

/**
 * Every issuer of these register sources whose key or name `matches` as shortwatch had seen it at
 * `atMs`, from each source's stored snapshots (an issuer the register no longer lists included).
 */
export async function registerIssuersSeen(
  stores: AsOfStores,
  sources: readonly string[],
  matches: (issuer: { key: string; name: string }) => boolean,
  atMs: number,
): Promise<IssuerSeen[]> {
  const found: IssuerSeen[] = [];
  for (const source of sources) {
    const keys = await stores.registers.issuerKeys(source);
    const snapshots = await stores.registers.snapshots(source, keys.sort());
    for (const [key, snapshot] of snapshots) {
      if (!matches({ key, name: snapshot.issuerName })) continue;
      found.push(await issuerSeen(stores, snapshot, key, source, atMs));
    }
  }
  return found;
}
