import type { DirectoryFollower } from '../../jobs/directory-follower.js';
import { sweepEvery } from '../../jobs/schedulers.js';
import type { Duty } from '../duty-scheduler.js';
import type { LiveSettings } from '../live-settings.js';
import { BEAT_MS } from './beat.js';

/** Whether following the directory moved the sweep's interval in a process that owns the schedulers. */
export function sweepMoved(schedules: boolean, intervalBefore: number, intervalAfter: number): boolean {
  return schedules && intervalAfter !== intervalBefore;
}

/**
 * Under `watchlist: all`, takes the watched set and the plan of the issuer list the sweeps saved since the
 * last look (jobs/directory-follower.ts); `follow` applies them (and upserts the sweep when it moved).
 */
export function directoryFollow(deps: { follow: () => Promise<void> }): Duty {
  return {
    name: 'directory-follow',
    periodMs: BEAT_MS,
    reads: '`<t>:directory` (when a new list was saved)',
    writes: "this process's watched set and plan; the sweep scheduler (a `start` process); `watchlist-plan`",
    failure: 'could not follow the issuer directory (watchlist: all)',
    run: deps.follow,
  };
}

/** What following the directory reads and writes. */
interface FollowParts {
  follower: Pick<DirectoryFollower, 'follow'>;
  live: Pick<LiveSettings, 'current' | 'update'>;
  /** Upserts the job schedulers for the settings in force. */
  syncSchedulers: () => Promise<void>;
}

/**
 * Takes the watched set and plan of a list saved since the last look; a `start` process upserts the
 * sweep again when its interval moved. A `command` follows silently (its plan is the saved list's).
 */
export async function followDirectory(
  parts: FollowParts,
  role: 'command' | 'worker' | 'start',
): Promise<void> {
  const before = parts.live.current;
  const next = await parts.follower.follow(before, { report: role !== 'command' });
  if (next === undefined) return;
  parts.live.update(next);
  if (sweepMoved(role === 'start', sweepEvery(before.plan), sweepEvery(next.plan)))
    await parts.syncSchedulers();
}
