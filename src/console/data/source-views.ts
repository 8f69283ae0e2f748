import type { App } from '../../app.js';
import type { RegisterSourceConfig } from '../../config/schema/sources.js';
import { type SourceStatus, sourceState } from '../../jobs/registers/source-status.js';
import { RegisterStore, type StoredRead } from '../../state/register-store.js';
import { type SourceIssuerRow, watchedRows } from './source-issuers.js';

/** One configured register source as the console shows it: its config, health and kept read. */
export interface SourceView {
  config: Pick<RegisterSourceConfig, 'name' | 'kind' | 'url' | 'interval' | 'watchlist'>;
  /** Read, not read (with the reason), stale or never read: what `shortwatch status` says. */
  status: SourceStatus;
  /** The last good read kept for the aggregate diff; null before the first one. */
  kept: StoredRead | null;
  /** The issuers of the kept read the source watches, largest aggregate first. */
  watched: SourceIssuerRow[];
}

/** The register store of the App's deployment. */
export function registerStore(app: App): RegisterStore {
  return new RegisterStore(app.redis, app.ctx.prefix);
}

/**
 * Every configured source, in the config's order: health as `status` tells it (source-status.ts) and
 * the kept read of each, with the issuers it watches.
 */
export async function loadSourceViews(app: App, only?: string): Promise<SourceView[]> {
  const configured = app.settings.config.sources.filter((s) => only === undefined || s.name === only);
  const store = registerStore(app);
  const nowMs = app.ctx.now().getTime();
  return Promise.all(
    configured.map(async (config): Promise<SourceView> => {
      const [health, kept, held] = await Promise.all([
        store.health(config.name),
        store.lastSnapshot(config.name),
        store.held(config.name),
      ]);
      return {
        config,
        status: sourceState(config, health, nowMs, held),
        kept,
        watched: kept ? watchedRows(kept.snapshot, config.watchlist) : [],
      };
    }),
  );
}
