import type { App } from '../app.js';
import { formatDuration } from '../config/duration.js';
import { stateKeys } from '../jobs/keys.js';
import { schedulerHealth, sweepEvery } from '../jobs/schedulers.js';
import { resolveWatchlist } from '../jobs/watchlist.js';
import { round4 } from '../positions/index.js';
import type { ActiveNotice } from './notices.js';

/** Everything `shortwatch status` shows, as plain data (`--json` prints it as is). */
export interface StatusReport {
  generatedAt: string;
  upstream: {
    access: 'ok' | 'unauthorized' | 'no-api-access';
    since: string | null;
    blockedUntil: string | null;
  };
  budget: {
    minute: { used: number; left: number; cap: number; resetsAt: string };
    day: { used: number; left: number; cap: number; resetsAt: string };
    reserve: number;
  };
  plan: {
    gate: boolean;
    sweepEvery: string;
    gateIntervalMs: number;
    sweepIntervalMs: number;
    refreshesPerDay: number;
    requestsPerDay: number;
    summary: string[];
  };
  sweep: { lastSweepAt: string | null; datasetLastUpdated: string | null; lastDue: number | null };
  issuers: Array<{ id: string; name: string; lastPoll: string | null; holders: number; totalShort: number }>;
  channels: Array<{
    name: string;
    kind: string;
    mode: string;
    waiting: number;
    delayed: number;
    active: number;
    failed: number;
    staged: number;
  }>;
  schedulers: Array<{ id: string; next: string | null; late: boolean }>;
  processes: Array<{ id: string; role: string; seenAt: string }>;
  notices: ActiveNotice[];
}

const PROCESS_FRESH_MS = 30_000;

/** Reads the daemon's state from Redis: any process can answer for all of them. */
export async function collectStatus(app: App): Promise<StatusReport> {
  const { ctx } = app;
  const { config, plan, watched } = app.settings;
  const now = ctx.now();
  const keys = stateKeys(ctx.prefix);
  const [access, usage, sweep, notices, workers] = await Promise.all([
    ctx.access.get(),
    ctx.budget.usage(),
    ctx.redis.hgetall(keys.sweep),
    ctx.notices.list(),
    ctx.redis.hgetall(keys.workers),
  ]);
  // A CLI process never resolved the watchlist itself: bind names against the directory the sweeps saved.
  const directory = (await ctx.directory.load())?.issuers ?? null;
  const bound =
    directory !== null || watched.length === 0
      ? resolveWatchlist(config.watchlist, directory).watched
      : watched;
  const ids = bound.map((w) => w.id);
  const snapshots = await ctx.snapshots.getMany(ids);
  const names = new Map(bound.map((w) => [w.id, w.name]));
  const channels = await Promise.all(
    config.channels.map(async (channel) => {
      const counts = await app.queues
        .deliver(channel.name)
        .getJobCounts('waiting', 'delayed', 'active', 'failed');
      return {
        name: channel.name,
        kind: channel.kind,
        mode: channel.mode,
        waiting: counts.waiting ?? 0,
        delayed: counts.delayed ?? 0,
        active: counts.active ?? 0,
        failed: counts.failed ?? 0,
        staged: channel.mode === 'digest' ? await ctx.digests.stagedCount(channel.name) : 0,
      };
    }),
  );
  const schedulers = await schedulerHealth(app.queues, config, now.getTime());
  return {
    generatedAt: now.toISOString(),
    upstream: {
      access: access.state,
      since: access.state === 'ok' ? null : new Date(access.since).toISOString(),
      blockedUntil:
        usage.blockedUntil && usage.blockedUntil > now.getTime()
          ? new Date(usage.blockedUntil).toISOString()
          : null,
    },
    budget: {
      minute: { ...pick(usage.minute), resetsAt: new Date(usage.minute.resetAt).toISOString() },
      day: { ...pick(usage.day), resetsAt: new Date(usage.day.resetAt).toISOString() },
      reserve: usage.reserve,
    },
    plan: {
      gate: plan.gate,
      sweepEvery: formatDuration(sweepEvery(plan)),
      gateIntervalMs: plan.gateIntervalMs,
      sweepIntervalMs: plan.sweepIntervalMs,
      refreshesPerDay: plan.refreshesPerDay,
      requestsPerDay: plan.requestsPerDay,
      summary: plan.summary,
    },
    sweep: {
      lastSweepAt: sweep.lastSweepAt || null,
      datasetLastUpdated: sweep.lastUpdated || null,
      lastDue: sweep.lastDue ? Number(sweep.lastDue) : null,
    },
    issuers: ids.map((id) => {
      const snapshot = snapshots.get(id);
      const positions = Object.values(snapshot?.positions ?? {});
      return {
        id,
        name: snapshot?.issuerName ?? names.get(id) ?? id,
        lastPoll: snapshot?.polledAt ?? null,
        holders: positions.length,
        totalShort: round4(positions.reduce((sum, p) => sum + p.value, 0)),
      };
    }),
    channels,
    schedulers: schedulers.map((s) => ({
      id: s.id,
      next: s.next ? new Date(s.next).toISOString() : null,
      late: s.late,
    })),
    processes: Object.entries(workers).flatMap(([id, raw]) => {
      const record = parseProcess(raw);
      if (!record || now.getTime() - Date.parse(record.seenAt) > PROCESS_FRESH_MS) return [];
      return [{ id, role: record.role, seenAt: record.seenAt }];
    }),
    notices,
  };
}

function pick(window: { used: number; left: number; cap: number }) {
  return { used: window.used, left: window.left, cap: window.cap };
}

function parseProcess(raw: string): { role: string; seenAt: string } | null {
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === 'object' && 'role' in value && 'seenAt' in value) {
      return { role: String(value.role), seenAt: String(value.seenAt) };
    }
  } catch {
    // A malformed entry is a dead process as far as status is concerned.
  }
  return null;
}

/** Readiness: Redis answers, upstream access is not revoked, and the schedulers exist and are on time. */
export async function readiness(app: App): Promise<{ ready: boolean; reasons: string[] }> {
  const reasons: string[] = [];
  try {
    await app.redis.ping();
  } catch {
    return { ready: false, reasons: ['redis does not answer'] };
  }
  const access = await app.ctx.access.get();
  if (access.state !== 'ok') reasons.push(`upstream access revoked (${access.state})`);
  const schedulers = await schedulerHealth(app.queues, app.settings.config, app.ctx.now().getTime());
  for (const s of schedulers) if (s.late) reasons.push(`scheduler ${s.id} is missing or late`);
  return { ready: reasons.length === 0, reasons };
}
