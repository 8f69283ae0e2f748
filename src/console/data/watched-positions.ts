import type { App } from '../../app.js';
import { collectStatus } from '../../ops/status.js';
import type { Snapshot } from '../../positions/types.js';

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
