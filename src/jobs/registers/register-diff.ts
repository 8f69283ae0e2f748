import type { RegisterSourceConfig } from '../../config/schema/sources.js';
import type { DiffResult, PositionEvent, Snapshot } from '../../positions/index.js';
import { round4 } from '../../positions/round.js';
import type { Disclosure } from '../../positions/types.js';
import { issuerNameKey } from '../../routing/match-keys.js';
import type { NamedPosition, RegisterIssuer, RegisterSnapshot } from '../../sources/types.js';
import type { IssuerPosition } from '../../upstream/schemas.js';
import { isMassEnding, marketOf, pastNamedHolders } from '../observe/boundary.js';
import { diffObserved } from '../observe/observation.js';

/** One issuer's diff within one read of a register. */
export interface RegisterIssuerDiff {
  /** The register's issuer key (ISIN, or `lei:…`). */
  key: string;
  name: string;
  previous: Snapshot | null;
  diff: DiffResult;
}

/** An issuer whose named holders the register stopped publishing: one message, never closes. */
export interface RegimeDrop {
  key: string;
  name: string;
  /** The sum of the named positions last read, in %. */
  lastNamedSum: number;
  /** The closes the drop stands for: routed to find who would have been told, never sent. */
  closes: PositionEvent[];
  /** The issuer's diff with its closes left out: committed so the next read starts from no holders. */
  silent: RegisterIssuerDiff;
}

/** What one read of a register changes in the named positions. */
export interface RegisterDiff {
  /** Issuers to commit (changed, new or closed); unchanged ones are left as stored. */
  issuers: RegisterIssuerDiff[];
  /** Issuers told as a regime change: committed silently (their closes dropped). */
  drops: RegimeDrop[];
  /** Why the drops are a regime change, with the counts for the ops notice; absent without drops. */
  regime?: RegimeDecision;
  /** Most named issuers emptied at once, but no confirming read yet: nothing may be committed. */
  unconfirmed?: { emptied: number; named: number };
}

/** Why a read's drops are a regime change: the calendar (or `namedHoldersUntil`), or most issuers emptied. */
export interface RegimeDecision {
  by: 'calendar' | 'share';
  /** Issuers that named holders and name none now. */
  emptied: number;
  /** Watched issuers that named holders before this read. */
  named: number;
}

/** Everything the per-holder diff of one register read needs. */
export interface RegisterDiffInput {
  source: Pick<RegisterSourceConfig, 'name' | 'watchlist' | 'regimeBoundary'>;
  /** This read agrees with the one held back before it: a mass ending may be committed. */
  confirmed?: boolean;
  snapshot: RegisterSnapshot;
  /** The stored snapshot of every issuer the source had, by issuer key. */
  previous: ReadonlyMap<string, Snapshot>;
  now: Date;
  thresholds: number[];
  onFirstSeen: 'baseline' | 'alert';
  /**
   * The issuer keys of the source's last read, absent on its first. An issuer not among them is new to
   * the register: it had no public position, so its positions are told (`opened`), never a baseline.
   */
  listedBefore?: ReadonlySet<string>;
  /** Issuers committed even when their named positions did not move: those with aggregate events. */
  alsoCommit: ReadonlySet<string>;
  /**
   * The last good read of the whole register, saved once every issuer of it was committed. A read
   * that failed part-way leaves it behind the issuers already committed: their drops still count.
   */
  kept?: RegisterSnapshot | undefined;
}

/**
 * The per-holder events of one register read, through the one diff: per watched issuer, the named
 * positions read against the stored snapshot; issuers in `alsoCommit` are committed whatever their named
 * positions did. A register that names no holders (aggregates, a scope list) has none. An issuer first
 * seen is a baseline (`onFirstSeen`) unless the source's last read did not list it: then its positions
 * are new. Past its market's boundary (the calendar) or the source's last day of named holders, an
 * issuer's dropped holders are a regime drop; so are those of a read that empties most of the issuers
 * that named holders, once a confirming read agrees. A handful emptying are closes. Pure.
 */
export function diffRegister(input: RegisterDiffInput): RegisterDiff {
  const named = input.snapshot.content === 'positions' && input.snapshot.namesHolders;
  const watched = (issuer: { key: string; name: string }) => isWatched(input.source.watchlist, issuer);
  const read = new Map(input.snapshot.issuers.filter(watched).map((issuer) => [issuer.key, issuer]));
  const stored = [...input.previous.entries()].filter(([key, s]) => watched({ key, name: s.issuerName }));
  // A register that names no holders keeps a snapshot only for the issuers its aggregate events commit.
  const keys = named
    ? [...new Set([...read.keys(), ...stored.map(([key]) => key), ...input.alsoCommit])].sort()
    : [...input.alsoCommit].sort();
  const diffs = keys.map((key) => issuerDiff(input, key, read.get(key), input.previous.get(key) ?? null));
  const commit = (d: RegisterIssuerDiff) => input.alsoCommit.has(d.key) || (named && changed(d));
  if (!named) return { issuers: diffs.filter(commit), drops: [] };
  const emptied = diffs.filter(droppedAll);
  const counts = {
    emptied: new Set([...emptied.map((d) => d.key), ...droppedSinceKept(input, read)]).size,
    named: namedBefore(input, stored),
  };
  const mass = isMassEnding({ ...counts, share: input.source.regimeBoundary.share });
  if (mass && input.confirmed !== true) return { issuers: [], drops: [], unconfirmed: counts };
  // Past its boundary, any holder an issuer drops is the boundary, not a close.
  const past = diffs.filter((d) => pastFor(input, d.key) && d.diff.events.some(isClose));
  const dropped = [...new Set([...past, ...(mass ? emptied : [])])];
  if (dropped.length === 0) return { issuers: diffs.filter(commit), drops: [] };
  const drops = new Set(dropped);
  return {
    issuers: diffs.filter((d) => commit(d) && !drops.has(d)),
    drops: dropped.map(regimeDrop),
    regime: { by: mass ? 'share' : 'calendar', ...counts },
  };
}

/** An issuer's drop: its closes stand for the boundary; whatever else moved is committed as told. */
export function regimeDrop(d: RegisterIssuerDiff): RegimeDrop {
  const closes = d.diff.events.filter(isClose);
  return {
    key: d.key,
    name: d.name,
    lastNamedSum: round4(closes.reduce((sum, close) => sum + (close.previous?.value ?? 0), 0)),
    closes,
    silent: { ...d, diff: { ...d.diff, events: d.diff.events.filter((event) => !isClose(event)) } },
  };
}

function isClose(event: PositionEvent): boolean {
  return event.kind === 'closed';
}

/** True when a register watchlist follows this issuer: `all`, its ISIN (key) or its name. */
export function isWatched(
  watchlist: RegisterSourceConfig['watchlist'],
  issuer: {
    key: string;
    name: string;
    isin?: string | undefined;
    otherIsins?: readonly string[] | undefined;
  },
): boolean {
  if (watchlist === 'all') return true;
  const name = issuerNameKey(issuer.name);
  // By ISIN too: an aggregate kept under its LEI (Sweden) still names the share it was joined to, and
  // a company's one aggregate is followed by any of its shares.
  return watchlist.some(
    (entry) =>
      entry === issuer.key ||
      entry === issuer.isin ||
      issuer.otherIsins?.includes(entry) === true ||
      issuerNameKey(entry) === name,
  );
}

function issuerDiff(
  input: RegisterDiffInput,
  key: string,
  issuer: RegisterIssuer | undefined,
  previous: Snapshot | null,
): RegisterIssuerDiff {
  const name = issuer?.name ?? previous?.issuerName ?? key;
  const observation = {
    source: input.source.name,
    key,
    name,
    rows: (issuer?.positions ?? []).map(
      (p): IssuerPosition => ({ position_holder: p.holder, value: p.percent, date: p.date }),
    ),
    version: input.snapshot.publishedOn ?? null,
    at: input.now,
  };
  const diff = diffObserved(observation, previous, {
    thresholds: input.thresholds,
    onFirstSeen: input.listedBefore?.has(key) === false ? 'alert' : input.onFirstSeen,
  });
  // A late filing is told so: the disclosure carries the date its holder filed it, where the register says.
  const events = diff.events.map((event) => {
    const lei = holderLeiOf(issuer, event.holderKey);
    return {
      ...event,
      ...(lei === undefined ? {} : { holderLei: lei }),
      current: withFiling(
        event.current,
        issuer?.positions.find((p) => p.holderKey === event.holderKey),
      ),
    };
  });
  return { key, name, previous, diff: { ...diff, events } };
}

/**
 * The holder's LEI where the register gives it (France): from its position, or for a close from the
 * history rows the file keeps (the ended notification still names it).
 */
function holderLeiOf(issuer: RegisterIssuer | undefined, key: string): string | undefined {
  const rows = [...(issuer?.positions ?? []), ...[...(issuer?.history ?? [])].reverse()];
  return rows.find((p) => p.holderKey === key && p.holderLei !== undefined)?.holderLei;
}

/** The disclosure with the date its holder filed it, where the register says (a late filing is told so). */
function withFiling(current: Disclosure | null, read: NamedPosition | undefined): Disclosure | null {
  if (current === null || read?.reportedOn === undefined || read.date !== current.date) return current;
  return { ...current, reportedOn: read.reportedOn };
}

/** A first sight, or a read that moved a position (a date alone moving is not worth a write). */
function changed(d: RegisterIssuerDiff): boolean {
  if (d.previous === null || d.diff.events.length > 0) return true;
  return JSON.stringify(d.previous.positions) !== JSON.stringify(d.diff.next.positions);
}

function droppedAll(d: RegisterIssuerDiff): boolean {
  const before = Object.keys(d.previous?.positions ?? {}).length;
  return before > 0 && Object.keys(d.diff.next.positions).length === 0;
}

/**
 * Watched issuers the kept read named holders of and this read names none of. Counted with the drops
 * against the issuers' own snapshots, so a read replayed after a failed commit is the same regime
 * change as the first attempt: the issuers it committed before failing no longer diff as drops.
 */
function droppedSinceKept(input: RegisterDiffInput, read: ReadonlyMap<string, RegisterIssuer>): string[] {
  const kept = input.kept;
  if (kept === undefined || kept.content !== 'positions' || !kept.namesHolders) return [];
  return kept.issuers
    .filter((issuer) => issuer.positions.length > 0 && isWatched(input.source.watchlist, issuer))
    .filter((issuer) => (read.get(issuer.key)?.positions.length ?? 0) === 0)
    .map((issuer) => issuer.key);
}

/** Watched issuers that named holders before this read: their snapshots, or the kept read's. */
function namedBefore(input: RegisterDiffInput, stored: readonly (readonly [string, Snapshot])[]): number {
  const keys = new Set(stored.filter(([, s]) => Object.keys(s.positions).length > 0).map(([key]) => key));
  for (const issuer of input.kept?.namesHolders ? input.kept.issuers : [])
    if (issuer.positions.length > 0 && isWatched(input.source.watchlist, issuer)) keys.add(issuer.key);
  return keys.size;
}

/** True when the issuer's named holders have ended by this read: its market's calendar or the source's date. */
function pastFor(input: RegisterDiffInput, key: string): boolean {
  const date = input.now.toISOString().slice(0, 10);
  return pastNamedHolders(input.source.regimeBoundary, marketOf({ isin: key }), date);
}
