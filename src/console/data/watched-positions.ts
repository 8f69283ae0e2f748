import type { App } from '../../app.js';
import { collectStatus } from '../../ops/status.js';
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
async function registerPositions(app: App): Promise<Array<HolderPosition & { key: string }>> {
  const views = await loadSourceViews(app);
  return views.flatMap((view) => {
    const watched = new Set(view.watched.map((row) => row.key));
    return (view.kept?.snapshot.issuers ?? [])
      .filter((issuer) => watched.has(issuer.key))
      .flatMap((issuer) =>
        issuer.positions.map((p): HolderPosition & { key: string } => ({
          key: p.holderKey,
          issuerId: issuer.key,
          issuerName: issuer.name,
          holder: p.holder,
          value: p.percent,
          date: p.date,
          source: view.config.name,
        })),
      );
  });
}

/** Every current position, the upstream's watched issuers' and every register's, grouped by holder key. */
export async function allPositionsByHolder(app: App): Promise<Map<string, HolderPosition[]>> {
  const byHolder = positionsByHolder(await watchedSnapshots(app));
  for (const { key, ...position } of await registerPositions(app)) {
    const list = byHolder.get(key) ?? [];
    list.push(position);
    byHolder.set(key, list);
  }
  return byHolder;
}
