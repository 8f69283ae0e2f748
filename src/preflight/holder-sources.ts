import type { RegisterSourceConfig } from '../config/schema/sources.js';
import type { Config } from '../config/schema.js';
import { readSource } from '../sources/read-source.js';
import type { RegisterSnapshot } from '../sources/types.js';
import type { EventLog } from '../state/event-log.js';
import type { SnapshotStore } from '../state/snapshot-store.js';
import { TimedOutError, within } from '../time/within.js';
import {
  type KnownHolder,
  mergeHolders,
  readKnownHolders,
  registerHolders,
  type StoredRegisters,
  storedRegisterReads,
} from './known-holders.js';

// The holders a filter or a mute is judged against, gathered from every source that names holders: what
// the upstream's polls stored, and each register source's read. A register never read yet (a fresh
// deployment) is read once, whole, when a caller can afford it (`check`, `start`), so a misspelt fund is
// caught before the first alert is lost rather than at the second start.

/** Where the holders come from. */
export interface HolderStores {
  snapshots: SnapshotStore;
  eventLog: EventLog;
  registers: StoredRegisters;
}

/** The holders known, and from where: what a caller says when it could not judge. */
export interface HolderKnowledge {
  holders: KnownHolder[];
  /** Holders the upstream's polls stored (snapshots and event log): none on a fresh deployment. */
  fromUpstream: number;
  /** The register sources whose holders are in, stored or read now. */
  registers: string[];
}

/** True when a channel filter names a holder: only then are the holders worth gathering. */
export function filtersNameHolders(config: Config): boolean {
  return config.channels.some(
    (channel) => (channel.filter.holders?.length ?? 0) + (channel.filter.excludeHolders?.length ?? 0) > 0,
  );
}

/**
 * How long a start waits for a register never read yet: a slow register must not hold a start for its
 * whole fetch timeout (60 s by default). Past it the register's holders are told as not checked.
 */
const START_READ_MS = 20_000;

/**
 * One register read whole (no validators, nothing stored) within {@link START_READ_MS}; undefined when it
 * would not be read or took longer (the register daemon reads it again at once, and says why).
 */
export async function readRegisterOnce(source: RegisterSourceConfig): Promise<RegisterSnapshot | undefined> {
  try {
    const read = await within(readSource(source, undefined), START_READ_MS, `register ${source.name}`);
    return read.status === 'read' ? read.snapshot : undefined;
  } catch (error) {
    if (error instanceof TimedOutError) return undefined;
    throw error;
  }
}

/**
 * The holders of the watched issuers' snapshots and the event log, and of each configured register: its
 * read given in `fresh` (check just read it), else its stored read, else — when `readMissing` is given —
 * one read now. A register that cannot be read is left out (check and the register daemon say why).
 */
export async function gatherHolders(
  config: Pick<Config, 'sources'>,
  stores: HolderStores,
  watchedIds: readonly string[],
  options: {
    fresh?: ReadonlyMap<string, RegisterSnapshot>;
    readMissing?: (source: RegisterSourceConfig) => Promise<RegisterSnapshot | undefined>;
  } = {},
): Promise<HolderKnowledge> {
  const polled = await readKnownHolders(stores, watchedIds);
  const names = config.sources.map((source) => source.name);
  const stored = await storedRegisterReads(stores.registers, names);
  const reads = new Map<string, RegisterSnapshot>();
  const missing: RegisterSourceConfig[] = [];
  for (const source of config.sources) {
    const read = options.fresh?.get(source.name) ?? stored.get(source.name);
    if (read !== undefined) reads.set(source.name, read);
    else missing.push(source);
  }
  const { readMissing } = options;
  if (readMissing !== undefined) {
    // Side by side: a fresh deployment's start waits for its slowest register, not their sum.
    const now = await Promise.all(
      missing.map(async (source) => [source.name, await readMissing(source)] as const),
    );
    for (const [name, read] of now) if (read !== undefined) reads.set(name, read);
  }
  const fromRegisters = [...reads.values()].map(registerHolders);
  return {
    holders: mergeHolders(polled, ...fromRegisters),
    fromUpstream: polled.length,
    registers: names.filter((name) => reads.has(name)),
  };
}

/**
 * What could not be judged, in words, or undefined when every source that names holders was consulted:
 * the upstream before its first poll stored anything (asking it would spend a request per issuer), or a
 * register not read.
 */
export function unjudgedSources(
  config: Pick<Config, 'sources' | 'upstream'>,
  knowledge: HolderKnowledge,
): string | undefined {
  const gaps: string[] = [];
  if (config.upstream !== undefined && knowledge.fromUpstream === 0)
    gaps.push(
      "the upstream's holders (none stored before the first sweep; asking would spend a request per issuer)",
    );
  const unread = config.sources.map((s) => s.name).filter((name) => !knowledge.registers.includes(name));
  if (unread.length > 0) gaps.push(`register ${unread.join(', ')} (not read)`);
  return gaps.length === 0 ? undefined : gaps.join('; ');
}
