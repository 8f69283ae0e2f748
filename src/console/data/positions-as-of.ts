import type { App } from '../../app.js';
import { type IssuerSeen, registerIssuersSeen, upstreamIssuerSeen } from '../../lookup/as-of.js';
import { RegisterStore } from '../../state/register-store.js';
import type { HolderPosition } from './watched-positions.js';
import { watchedSnapshots } from './watched-positions.js';

/**
 * Every position shortwatch had seen at `atMs` (issue 34, "as of"): each watched upstream issuer's and
 * each register issuer's, rebuilt from its snapshot and event log (lookup/as-of.ts), for a holder page
 * asked `?asOf=`. One log read per issuer: asked for, never on a plain page view.
 */
export async function positionsAsOf(app: App, atMs: number): Promise<HolderPosition[]> {
  const stores = {
    snapshots: app.ctx.snapshots,
    registers: new RegisterStore(app.redis, app.ctx.prefix),
    eventLog: app.ctx.eventLog,
    eventsKept: app.settings.config.poll.eventsKept,
  };
  const seen: IssuerSeen[] = [];
  for (const snapshot of await watchedSnapshots(app)) {
    const issuer = await upstreamIssuerSeen(stores, snapshot.issuerId, atMs);
    if (issuer !== null) seen.push(issuer);
  }
  const sources = app.settings.config.sources.map((s) => s.name);
  seen.push(...(await registerIssuersSeen(stores, sources, () => true, atMs)));
  return seen.flatMap((issuer) =>
    issuer.positions.map(
      (p): HolderPosition => ({
        issuerId: issuer.key,
        issuerName: issuer.name,
        holderKey: p.holderKey,
        holder: p.holder,
        value: p.value,
        date: p.date,
        ...(issuer.source === undefined ? {} : { source: issuer.source }),
      }),
    ),
  );
}
