import { formatDuration } from '../../config/duration.js';
import type { RegisterSourceConfig } from '../../config/schema/sources.js';
import { sourceStaleKey } from '../../jobs/registers/source-notices.js';
import { type SourceStatus, STALE_AFTER_INTERVALS, sourceState } from '../../jobs/registers/source-status.js';
import type { Notices } from '../../state/notices.js';
import type { RegisterStore } from '../../state/register-store.js';
import type { Duty } from '../duty-scheduler.js';
import { BEAT_MS } from './beat.js';

/** One source's verdict: stale (with why), or not. */
export interface Staleness {
  source: string;
  stale: boolean;
  why: string;
}

/**
 * The least time without a good read that the notice waits for, whatever the interval: a register read
 * every few seconds (a test, a demo) that misses three reads is a blip, not yet a dead feed to page about.
 */
export const STALE_NOTICE_FLOOR_MS = 10 * 60_000;

/**
 * Which sources are stale now, for the notice: no good read for {@link STALE_AFTER_INTERVALS} intervals
 * (at least {@link STALE_NOTICE_FLOOR_MS}); one never read at all counts from this process's start: a
 * scheduler that never runs, or a worker that never takes its jobs, reads nothing and writes no health,
 * and must not look like a quiet register. Pure.
 */
export function staleSources(
  sources: readonly Pick<RegisterSourceConfig, 'name' | 'interval'>[],
  statuses: readonly SourceStatus[],
  startedAtMs: number,
  nowMs: number,
): Staleness[] {
  return sources.map((source) => {
    const status = statuses.find((s) => s.name === source.name);
    const bound = Math.max(STALE_AFTER_INTERVALS * source.interval, STALE_NOTICE_FLOOR_MS);
    if (status === undefined || status.state === 'never') {
      const stale = nowMs - startedAtMs > bound;
      return { source: source.name, stale, why: `not read once in ${formatDuration(nowMs - startedAtMs)}` };
    }
    const lastGood = status.lastGoodAt === null ? startedAtMs : Date.parse(status.lastGoodAt);
    const stale = status.state === 'stale' && nowMs - lastGood > bound;
    const since = status.lastGoodAt ?? 'this process started';
    const why = `no good read since ${since}${status.reason ? ` (last: ${status.reason})` : ''}`;
    return { source: source.name, stale, why };
  });
}

/**
 * A register that stopped being read reaches the operator as a critical notice, not only as a `/readyz`
 * reason: `source-stale-<name>`, raised while it lasts and cleared by the next good read.
 */
export function sourceStaleness(deps: {
  sources: () => readonly RegisterSourceConfig[];
  store: Pick<RegisterStore, 'health'>;
  notices: Pick<Notices, 'raise' | 'clear'>;
  now: () => Date;
  startedAtMs: number;
}): Duty {
  return {
    name: 'source-staleness',
    periodMs: BEAT_MS,
    reads: "each register source's health (`<t>:register:<name>:health`)",
    writes: '`source-stale-<name>`',
    failure: 'could not check the register sources for staleness',
    run: async () => {
      const sources = deps.sources();
      if (sources.length === 0) return;
      const nowMs = deps.now().getTime();
      const statuses = await Promise.all(
        sources.map(async (s) => sourceState(s, await deps.store.health(s.name), nowMs)),
      );
      for (const verdict of staleSources(sources, statuses, deps.startedAtMs, nowMs)) {
        const key = sourceStaleKey(verdict.source);
        if (!verdict.stale) await deps.notices.clear(key, `The ${verdict.source} register is read again.`);
        else
          await deps.notices.raise(
            key,
            'critical',
            `Register ${verdict.source} is stale`,
            `The ${verdict.source} register has had ${verdict.why}: its changes are not being told. See \`shortwatch status\` (SOURCES) and the log.`,
          );
      }
    },
  };
}
