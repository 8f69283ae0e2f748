import type { App } from '../../app.js';
import { collectStatus } from '../../ops/status.js';
import type { HolderIdentities } from '../../positions/holder-identity.js';
import type { Snapshot } from '../../positions/types.js';
import { loadSourceViews } from './source-views.js';

/** The watched issuers' snapshots, as `status` binds the watchlist (unreadable ones left out). */
export async function watchedSnapshots(app: App): Promise<Snapshot[]> {
  const { issuers } = await collectStatus(app);
  const { snapshots } = await app.ctx.snapshots.readMany(issuers.map((i) => i.id));
  return [...snapshots.values()];
}

/** One holder's position in one issuer. */
export interface HolderPosition {
  issuerId: string;
  issuerName: string;
  /** The holder key the source keys it by (the name's), and the LEI where the register gives one. */
  holderKey: string;
  holderLei?: string;
  holder: string;
  value: number;
  date: string;
  /** The register source it was read from; absent for the upstream API's. */
  source?: string;
}

/** Every active position of every watched issuer, grouped by holder key. */
export function positionsByHolder(snapshots: readonly Snapshot[]): Map<string, HolderPosition[]> {
  const byHolder = new Map<string, HolderPosition[]>();
  for (const s of snapshots) {
    for (const [key, p] of Object.entries(s.positions)) {
      const list = byHolder.get(key) ?? [];
      list.push({
        issuerId: s.issuerId,
        issuerName: s.issuerName,
        holderKey: key,
        holder: p.holder,
        value: p.value,
        date: p.date,
      });
      byHolder.set(key, list);
    }
  }
  return byHolder;
}

/**
 * The named positions of every register source's kept read, in the issuers each source watches, grouped
 * by holder key: what the Sources pages show, so a registers-only deployment's holders are not empty.
 */
async function registerPositions(app: App): Promise<HolderPosition[]> {
  const views = await loadSourceViews(app);
  return views.flatMap((view) => {
    const watched = new Set(view.watched.map((row) => row.key));
    return (view.kept?.snapshot.issuers ?? [])
      .filter((issuer) => watched.has(issuer.key))
      .flatMap((issuer) =>
        issuer.positions.map(
          (p): HolderPosition => ({
            holderKey: p.holderKey,
            ...(p.holderLei === undefined ? {} : { holderLei: p.holderLei }),
            issuerId: issuer.key,
            issuerName: issuer.name,
            holder: p.holder,
            value: p.percent,
            date: p.date,
            source: view.config.name,
          }),
        ),
      );
  });
}

/**
 * Every current position, the upstream's watched issuers' and every register's, grouped by holder
 * identity (issue 34): a register's LEI, the alias table (`holders.aliases`), else the holder key, so a
 * fund named by LEI in one register and by name in another is one holder.
 */
export async function allPositionsByHolder(
  app: App,
  identities: HolderIdentities,
): Promise<Map<string, HolderPosition[]>> {
  const byHolder = new Map<string, HolderPosition[]>();
  const all = [...positionsByHolder(await watchedSnapshots(app)).values()].flat();
  for (const position of [...all, ...(await registerPositions(app))]) {
    const key = identities.keyOf(position);
    const list = byHolder.get(key) ?? [];
    list.push(position);
    byHolder.set(key, list);
  }
  return byHolder;
}
