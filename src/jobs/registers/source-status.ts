import type { RegisterSourceConfig } from '../../config/schema/sources.js';
import type { RedisClient } from '../../state/redis-connection.js';
import { type HeldRead, RegisterStore, type SourceHealth } from '../../state/register-store.js';

/** How many intervals without a good read make a source stale: one refused file is not yet a problem. */
export const STALE_AFTER_INTERVALS = 3;

/** One register source as `status` and `/readyz` tell it. */
export interface SourceStatus {
  name: string;
  kind: string;
  /**
   * `read`: the last attempt read the file (or found it unchanged); `not-read`: the last file was refused
   * (`reason`); `stale`: no good read for {@link STALE_AFTER_INTERVALS} intervals; `never`: not read yet.
   */
  state: 'read' | 'not-read' | 'stale' | 'never';
  reason: string | null;
  lastGoodAt: string | null;
  /** A read held back until a confirming read agrees: what it removed and when it is read again. */
  held?: string;
}

/** The state of one source from its stored health. Pure. */
export function sourceState(
  source: Pick<RegisterSourceConfig, 'name' | 'kind' | 'interval'>,
  health: SourceHealth | null,
  nowMs: number,
  heldRead: HeldRead | null = null,
): SourceStatus {
  const base = {
    name: source.name,
    kind: source.kind,
    ...(heldRead === null ? {} : { held: heldText(heldRead) }),
  };
  if (health === null) return { ...base, state: 'never', reason: null, lastGoodAt: null };
  const lastGood = health.lastGoodAt ?? health.since;
  const reason = health.status === 'not-read' ? `${health.reason}: ${health.detail ?? ''}`.trim() : null;
  const stale = nowMs - Date.parse(lastGood) > STALE_AFTER_INTERVALS * source.interval;
  return {
    ...base,
    state: stale ? 'stale' : health.status,
    reason,
    lastGoodAt: health.lastGoodAt ?? null,
  };
}

/** A held-back read in words: what it removed, since when, and when it is read again. */
function heldText(held: HeldRead): string {
  const again = held.readAgainAt === undefined ? '' : `; read again at ${held.readAgainAt}`;
  return `${held.text} (since ${held.since}${again})`;
}

/** Every configured source's state, read from Redis. */
export async function collectSources(
  redis: RedisClient,
  root: string,
  sources: readonly RegisterSourceConfig[],
  nowMs: number,
): Promise<SourceStatus[]> {
  const store = new RegisterStore(redis, root);
  return Promise.all(
    sources.map(async (source) =>
      sourceState(source, await store.health(source.name), nowMs, await store.held(source.name)),
    ),
  );
}
