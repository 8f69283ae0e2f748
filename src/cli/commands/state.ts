import { type App, planFor } from '../../app.js';
import type { Plan } from '../../budget/index.js';
import { displayText, formatDelta, formatPercent, KIND_VERB } from '../../channels/format.js';
import { formatDuration } from '../../config/duration.js';
import { describeWatchlist } from '../../jobs/plan-for.js';
import { isWholeDirectory } from '../../jobs/watchlist.js';
import { issuerSources, lookupIssuer } from '../../lookup/issuer-lookup.js';
import {
  type BudgetStatus,
  collectStatus,
  type StatusReport,
  type UpstreamStatus,
} from '../../ops/status.js';
import type { SubscribersStatus } from '../../ops/subscriber-status.js';
import { seenBy } from '../../positions/as-of.js';
import type { PositionEvent } from '../../positions/types.js';
import { GLOBAL_EVENTS_FACTOR } from '../../state/retention.js';
import { isSnapshotCorruptError } from '../../state/snapshot-corrupt-error.js';
import type { Issuer } from '../../upstream/schemas.js';
import { asOfMs } from '../as-of.js';
import { withBudgetWait } from '../budget-wait.js';
import type { CommandContext } from '../context.js';
import { withApp } from '../context.js';
import { describeFailure, EXIT } from '../exit.js';
import { parseCount } from '../number-options.js';
import { renderTable } from '../table.js';
import { resolveIssuerArgument } from './upstream.js';

/**
 * `shortwatch plan`: the polling plan for this config, in words. Under `watchlist: all` the plan is for
 * the directory's size: one `GET /issuers` from the interactive reserve, else the list the sweeps saved;
 * with neither there is no size to plan for (exit 1). Without `upstream` nothing is polled: it says so.
 */
export async function planCommand(ctx: CommandContext): Promise<number> {
  if (ctx.config.upstream === undefined) {
    ctx.out('No upstream API configured (registers only): no polling plan, no budget spent.');
    return EXIT.ok;
  }
  if (!isWholeDirectory(ctx.config.watchlist)) {
    printPlan(ctx, describeWatchlist(ctx.config, null), planFor(ctx.config));
    return EXIT.ok;
  }
  const directory = await withApp(ctx, (app) => directoryToPlanFor(ctx, app));
  const watchlist = describeWatchlist(ctx.config, directory);
  if (directory === null) {
    ctx.out(`Watchlist: ${watchlist}.`);
    return EXIT.failure;
  }
  printPlan(ctx, watchlist, planFor(ctx.config, directory.issuers));
  return EXIT.ok;
}

function printPlan(ctx: CommandContext, watchlist: string, plan: Plan): void {
  const { budget } = ctx.config;
  ctx.out(
    `Watchlist: ${watchlist}; budget ${budget.perMinute}/minute, ${budget.perDay}/day, reserve ${budget.reserve}.`,
  );
  for (const line of plan.summary) ctx.out(line);
  for (const line of plan.adjusted) ctx.out(`Adjusted: ${line}`);
}

/** The issuer list `all` stands for now: the upstream's, else the one the sweeps saved, else none. */
async function directoryToPlanFor(
  ctx: CommandContext,
  app: App,
): Promise<{ issuers: readonly Issuer[]; source: string } | null> {
  try {
    const list = await withBudgetWait(
      Boolean(ctx.options.wait),
      () => app.client('interactive').listIssuers(),
      ctx.out,
    );
    return { issuers: list.data, source: 'GET /issuers' };
  } catch (error) {
    const saved = await app.ctx.directory.load();
    ctx.out(
      `GET /issuers failed (${describeFailure(error).message}): ${saved ? 'planning for the issuer list the sweeps saved' : 'no sweep has saved an issuer list either'}.`,
    );
    return saved && { issuers: saved.issuers, source: `the issuer list saved at ${saved.fetchedAt}` };
  }
}

/** `shortwatch status [--json]`: what every process of this deployment is doing, read from Redis. */
export async function statusCommand(ctx: CommandContext, options: { json?: boolean }): Promise<void> {
  await withApp(ctx, async (app) => {
    const report = await collectStatus(app);
    ctx.out(options.json ? JSON.stringify(report, null, 2) : formatStatus(report));
  });
}

/** The budget line's note when other deployments spend the same key's budget. */
function sharedBudget(deployments: readonly string[]): string {
  if (deployments.length === 0) return '';
  return `; SHARED with deployment ${deployments.join(', ')} (same API key): polls come later than planned`;
}

/** What `status` says in place of the upstream's lines when the config has none. */
const NO_UPSTREAM =
  'Upstream: no upstream API configured (registers only: the sources below); no budget spent';

/** The status report for a terminal: what stops alerts first, then the detail. */
export function formatStatus(r: StatusReport): string {
  const daemon = r.processes.length > 0;
  const lines = [
    ...alarms(r),
    ...(r.upstream === null || r.budget === null ? [NO_UPSTREAM] : apiLines(r, r.upstream, r.budget)),
    '',
    renderTable(
      // The words of the console's Queues and of `deliveries`: ready, held, sending, parked, staged.
      ['CHANNEL', 'KIND', 'MODE', 'READY', 'HELD', 'SENDING', 'PARKED', 'STAGED', 'OLDEST UNSENT'],
      r.channels.map((c) => [
        c.name,
        c.kind,
        c.mode,
        c.waiting,
        c.delayed,
        c.active,
        c.failed,
        c.staged,
        describeOldest(c),
      ]),
    ),
    ...(r.sources.length > 0
      ? [
          '',
          renderTable(
            ['REGISTER', 'KIND', 'STATE', 'LAST GOOD READ'],
            r.sources.map((s) => [
              s.name,
              s.kind,
              [s.reason ? `${s.state}: ${s.reason}` : s.state, s.held ? `held back: ${s.held}` : '']
                .filter(Boolean)
                .join('; '),
              s.lastGoodAt ?? 'never',
            ]),
          ),
        ]
      : []),
    ...(r.subscribers ? ['', ...subscriberLines(r.subscribers)] : []),
    '',
    `Schedulers: ${r.schedulers.map(describeScheduler).join('; ') || 'none'}${daemon ? '' : ' (no daemon running to run them)'}`,
    `Processes alive: ${r.processes.map((p) => `${p.id} (${p.role})`).join(', ') || 'none'}`,
    `Notices: ${r.notices.map((n) => `[${n.severity}] ${n.title}`).join('; ') || 'none'}`,
  ];
  return lines.join('\n');
}

/** Subscribers by state and their outboxes summed, in the channel table's words. */
function subscriberLines(s: SubscribersStatus): string[] {
  const oldest =
    s.oldestUndeliveredMs === null ? '' : `; oldest unsent ${formatDuration(s.oldestUndeliveredMs)}`;
  return [
    `Subscribers: ${s.total} (${s.active} active, ${s.paused} paused, ${s.unsubscribed} unsubscribed; ${s.digest} on a digest)`,
    `Subscriber outboxes: ${s.outboxesWithWork} with work; ${s.ready} ready, ${s.held} held, ${s.sending} sending, ${s.parked} parked, ${s.staged} staged${oldest}`,
  ];
}

/** The upstream's access and budget, the plan, the last sweep and the watched issuers. */
function apiLines(r: StatusReport, upstream: UpstreamStatus, budget: BudgetStatus): string[] {
  const { minute, day } = budget;
  return [
    `Upstream access: ${describeAccess(upstream, budget)}`,
    `Budget: minute ${minute.used}/${minute.cap} used (${minute.left} left), day ${day.used}/${day.cap} used (${day.left} left, reserve ${budget.reserve})${sharedBudget(budget.sharedWith)}`,
    watchlistLine(r),
    `Plan: sweep every ${r.plan.sweepEvery}, gate ${r.plan.gate ? 'on' : 'off'}, ${r.plan.refreshesPerDay} refreshes/day followable, ~${r.plan.requestsPerDay} requests/day planned`,
    describeBound(r, upstream),
    `Last sweep: ${r.sweep.lastSweepAt ?? 'never'}; dataset last_updated ${r.sweep.datasetLastUpdated ?? 'unknown'}`,
    '',
    renderTable(
      ['ISSUER', 'NAME', 'LAST POLL', 'HOLDERS', 'TOTAL SHORT', 'POLLING'],
      r.issuers.map((i) => [
        i.id,
        i.name,
        // Before its first poll an issuer has no holders to count: "0 holders, 0%" would be a claim.
        ...(i.lastPoll === null ? ['not polled yet', '-', '-'] : [i.lastPoll, i.holders, `${i.totalShort}%`]),
        i.problem ? `${i.health}: ${i.problem}` : i.health,
      ]),
    ),
    ...(r.overdue.length > 0 ? ['', 'Overdue:', ...r.overdue.map((line) => `  ${line}`)] : []),
  ];
}

/** The age of a channel's oldest undelivered message, `STALLED` past `delivery.stalledAfter`. */
function describeOldest(channel: StatusReport['channels'][number]): string {
  if (channel.oldestUndeliveredMs === null) return '-';
  const age = formatDuration(channel.oldestUndeliveredMs);
  return channel.stalled ? `${age} STALLED` : age;
}

/** What stops alerts altogether, before anything else: polling stopped, no daemon. */
function alarms(r: StatusReport): string[] {
  return [
    ...(r.upstream === null || r.budget === null || r.upstream.access === 'ok'
      ? []
      : [`POLLING STOPPED: ${describeAccess(r.upstream, r.budget)}`]),
    ...(r.processes.length > 0
      ? []
      : [
          'NO DAEMON RUNNING: no shortwatch process has reported in the last 30s; nothing is polled or delivered until `shortwatch start` runs',
        ]),
  ];
}

function describeAccess(upstream: UpstreamStatus, budget: BudgetStatus): string {
  if (upstream.access !== 'ok') {
    const what = upstream.access === 'unauthorized' ? 'UNAUTHORIZED (401)' : 'NO API ACCESS (403)';
    return `${what} since ${upstream.since}; polling stopped`;
  }
  if (budget.probing) {
    return `rate-limited, one probe request every ${budget.probing.every} (next ${upstream.blockedUntil ?? 'now'}): ${budget.blockedReason}`;
  }
  return upstream.blockedUntil ? `blocked by a 429 until ${upstream.blockedUntil}` : 'ok';
}

/** The watched issuers, and the entries that bind none: a name that does not resolve is not watched. */
function watchlistLine(r: StatusReport): string {
  const { watchlist: w } = r;
  if (w.all) return `Watchlist: whole directory, ${w.issuers} issuers`;
  if (w.unresolved.length === 0) return `Watchlist: ${w.issuers} issuers`;
  const names = w.unresolved.map((name) => `"${displayText(name)}"`).join(', ');
  return `Watchlist: ${w.issuers} issuers of ${w.entries} entries; ${w.unresolved.length} NOT RESOLVED (not watched): ${names}`;
}

/** The hard bound, unless nothing keeps it now (polling stopped, no daemon): then that is said instead. */
function describeBound(r: StatusReport, upstream: UpstreamStatus): string {
  const stopped =
    upstream.access !== 'ok'
      ? 'polling is stopped (upstream access revoked)'
      : r.processes.length === 0
        ? 'no daemon is running'
        : undefined;
  const longest = r.bound.longest
    ? `; longest now ${formatDuration(r.bound.longest.ageMs)} (${r.bound.longest.id}, polled ${r.bound.longest.since})`
    : '';
  if (stopped) return `Hard bound: NOT KEPT: ${stopped}${longest}`;
  return `Hard bound: no watched issuer unpolled longer than ${r.bound.every ?? 'forever (poll.maxStaleness off)'}${longest}`;
}

function describeScheduler(s: StatusReport['schedulers'][number]): string {
  if (!s.registered) return `${s.id} not registered yet (\`shortwatch start\` registers it)`;
  return `${s.id} next ${s.next ?? 'none'}${s.late ? ' (LATE)' : ''}`;
}

/**
 * `shortwatch resume`: clears a 401/403 stop after the key or plan was fixed. `shortwatch resume ISSUER`:
 * the issuer is asked again at the next sweep, whatever its 404 backoff; a snapshot that cannot be read
 * is dropped, so the issuer is re-baselined (silently) rather than failing at every poll.
 */
export async function resumeCommand(ctx: CommandContext, issuer?: string): Promise<void> {
  await withApp(ctx, async (app) => {
    if (issuer !== undefined) {
      ctx.out(await resumeIssuer(app, issuer));
      return;
    }
    const restored = await app.ctx.access.restore();
    if (restored) await app.ctx.notices.clear('access-revoked', 'Resumed by an operator.');
    ctx.out(
      restored
        ? 'Upstream access marked ok; polling resumes at the next sweep.'
        : 'Upstream access was not stopped.',
    );
  });
}

async function resumeIssuer(app: App, argument: string): Promise<string> {
  const directory = (await app.ctx.directory.load())?.issuers ?? [];
  const id = resolveIssuerArgument(argument, directory);
  const said: string[] = [];
  if (await app.ctx.pollHealth.clearNotFound(id)) {
    await app.ctx.notices.clear(`issuer-missing-${id}`, `Resumed by an operator: ${id} is asked again.`);
    said.push(`${id}: 404 backoff cleared; asked again at the next sweep.`);
  }
  try {
    await app.ctx.snapshots.get(id);
  } catch (error) {
    if (!isSnapshotCorruptError(error)) throw error;
    await app.ctx.snapshots.delete(id);
    said.push(`${id}: the unreadable snapshot was dropped; the next poll re-baselines it silently.`);
  }
  return said.join('\n') || `${id}: nothing to resume (no 404 backoff, snapshot readable).`;
}

/**
 * The issuer `events` is asked about: named like the watchlist binds names (a part of one name will do),
 * or an id the event log still holds (an issuer since dropped from the list). Anything else is a usage
 * error with the closest names, rather than an empty table that looks like "no changes".
 */
async function eventsIssuerId(app: App, argument: string): Promise<string> {
  try {
    return lookupIssuer(argument, await issuerSources(app.ctx.directory, app.settings.config.watchlist), {
      partial: true,
    }).id;
  } catch (error) {
    const logged = await app.ctx.eventLog.recent({ issuerId: argument.trim(), limit: 1 });
    if (logged.length > 0) return argument.trim();
    throw error;
  }
}

/**
 * The newest `limit` events of the log (one issuer's or all), or with `asOf` the newest of those
 * shortwatch had seen by then (detected at or before it), read from as far back as the log keeps.
 */
async function eventsSeen(
  app: App,
  issuerId: string | undefined,
  limit: number,
  asOf: string | undefined,
): Promise<PositionEvent[]> {
  if (asOf === undefined) return app.ctx.eventLog.recent({ issuerId, limit });
  const atMs = asOfMs(asOf, app.ctx.now().getTime());
  const kept = app.settings.config.poll.eventsKept * (issuerId === undefined ? GLOBAL_EVENTS_FACTOR : 1);
  const events = await app.ctx.eventLog.recent({ issuerId, limit: kept });
  return events.filter((event) => seenBy(event, atMs)).slice(0, limit);
}

/** `shortwatch events [ISSUER] [--limit N] [--as-of T]`: the latest detected events, newest first. */
export async function eventsCommand(
  ctx: CommandContext,
  issuer: string | undefined,
  options: { limit: string; json?: boolean; asOf?: string },
): Promise<void> {
  const limit = parseCount(options.limit, '--limit');
  await withApp(ctx, async (app) => {
    const issuerId = issuer ? await eventsIssuerId(app, issuer) : undefined;
    const events = await eventsSeen(app, issuerId, limit, options.asOf);
    if (options.json) {
      ctx.out(JSON.stringify(events, null, 2));
      return;
    }
    ctx.out(
      renderTable(
        ['DETECTED', 'ISSUER', 'HOLDER', 'KIND', 'FROM', 'TO', 'CHANGE'],
        events.map((e) => [
          e.detectedAt.slice(0, 19).replace('T', ' '),
          e.issuer.name,
          e.holder,
          kindCell(e),
          e.previous ? formatPercent(e.previous.value) : '-',
          e.current ? formatPercent(e.current.value) : '<0.5%',
          e.kind === 'closed' ? '-' : formatDelta(e.delta),
        ]),
      ),
    );
  });
}

/** The kind as the alerts tell it: `cut, fell below 0.5%`, `opened, back after 12d, held until 16:17Z`. */
function kindCell(event: PositionEvent): string {
  const parts = [KIND_VERB[event.kind]];
  if (event.story?.kind === 'fell-below') parts.push('fell below 0.5%');
  if (event.story?.kind === 'below-confirmed') parts.push('confirms the fall');
  if (event.story?.kind === 'back-above') parts.push(`back after ${event.story.daysBelow}d`);
  if (event.hold) parts.push(`held until ${event.hold.until.slice(11, 16)}Z`);
  return parts.join(', ');
}

/** Duration text for messages. */
export { formatDuration };
