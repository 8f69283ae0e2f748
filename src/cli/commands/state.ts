import { planFor } from '../../app.js';
import { formatDelta, formatPercent, KIND_VERB } from '../../channels/format.js';
import { formatDuration } from '../../config/duration.js';
import { collectStatus, type StatusReport } from '../../ops/status.js';
import type { CommandContext } from '../context.js';
import { withApp } from '../context.js';
import { renderTable } from '../table.js';
import { resolveIssuerArgument } from './upstream.js';

/** `shortwatch plan`: the polling plan for this config, in words. */
export function planCommand(ctx: CommandContext): void {
  const plan = planFor(ctx.config);
  ctx.out(
    `Watchlist: ${ctx.config.watchlist.length} issuers; budget ${ctx.config.budget.perMinute}/minute, ${ctx.config.budget.perDay}/day, reserve ${ctx.config.budget.reserve}.`,
  );
  for (const line of plan.summary) ctx.out(line);
  for (const line of plan.adjusted) ctx.out(`Adjusted: ${line}`);
}

/** `shortwatch status [--json]`: what every process of this deployment is doing, read from Redis. */
export async function statusCommand(ctx: CommandContext, options: { json?: boolean }): Promise<void> {
  await withApp(ctx, async (app) => {
    const report = await collectStatus(app);
    ctx.out(options.json ? JSON.stringify(report, null, 2) : formatStatus(report));
  });
}

/** The status report for a terminal. */
export function formatStatus(r: StatusReport): string {
  const access =
    r.upstream.access === 'ok'
      ? r.upstream.blockedUntil
        ? `blocked by a 429 until ${r.upstream.blockedUntil}`
        : 'ok'
      : `${r.upstream.access === 'unauthorized' ? 'UNAUTHORIZED (401)' : 'NO API ACCESS (403)'} since ${r.upstream.since}; polling stopped`;
  const lines = [
    `Upstream access: ${access}`,
    `Budget: minute ${r.budget.minute.used}/${r.budget.minute.cap} used (${r.budget.minute.left} left), day ${r.budget.day.used}/${r.budget.day.cap} used (${r.budget.day.left} left, reserve ${r.budget.reserve})`,
    `Plan: sweep every ${r.plan.sweepEvery}, gate ${r.plan.gate ? 'on' : 'off'}, ${r.plan.refreshesPerDay} refreshes/day followable, ~${r.plan.requestsPerDay} requests/day planned`,
    `Last sweep: ${r.sweep.lastSweepAt ?? 'never'}; dataset last_updated ${r.sweep.datasetLastUpdated ?? 'unknown'}`,
    '',
    renderTable(
      ['ISSUER', 'NAME', 'LAST POLL', 'HOLDERS', 'TOTAL SHORT'],
      r.issuers.map((i) => [i.id, i.name, i.lastPoll ?? 'never', i.holders, `${i.totalShort}%`]),
    ),
    '',
    renderTable(
      ['CHANNEL', 'KIND', 'MODE', 'WAITING', 'DELAYED', 'FAILED', 'STAGED'],
      r.channels.map((c) => [c.name, c.kind, c.mode, c.waiting, c.delayed, c.failed, c.staged]),
    ),
    '',
    `Schedulers: ${r.schedulers.map((s) => `${s.id} next ${s.next ?? 'none'}${s.late ? ' (LATE)' : ''}`).join('; ') || 'none'}`,
    `Processes alive: ${r.processes.map((p) => `${p.id} (${p.role})`).join(', ') || 'none'}`,
    `Notices: ${r.notices.map((n) => `[${n.severity}] ${n.title}`).join('; ') || 'none'}`,
  ];
  return lines.join('\n');
}

/** `shortwatch resume`: clears a 401/403 stop after the key or plan was fixed. */
export async function resumeCommand(ctx: CommandContext): Promise<void> {
  await withApp(ctx, async (app) => {
    const restored = await app.ctx.access.restore();
    if (restored) await app.ctx.notices.clear('access-revoked', 'Resumed by an operator.');
    ctx.out(
      restored
        ? 'Upstream access marked ok; polling resumes at the next sweep.'
        : 'Upstream access was not stopped.',
    );
  });
}

/** `shortwatch events [ISSUER] [--limit N]`: the latest detected events, newest first. */
export async function eventsCommand(
  ctx: CommandContext,
  issuer: string | undefined,
  options: { limit: string; json?: boolean },
): Promise<void> {
  await withApp(ctx, async (app) => {
    const directory = (await app.ctx.directory.load())?.issuers ?? [];
    const issuerId = issuer ? resolveIssuerArgument(issuer, directory) : undefined;
    const events = await app.ctx.eventLog.recent({ issuerId, limit: Number(options.limit) || 20 });
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
          KIND_VERB[e.kind],
          e.previous ? formatPercent(e.previous.value) : '-',
          e.current ? formatPercent(e.current.value) : '<0.5%',
          e.kind === 'closed' ? '-' : formatDelta(e.delta),
        ]),
      ),
    );
  });
}

/** Duration text for messages. */
export { formatDuration };
