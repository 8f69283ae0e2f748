import { deliveryJobSchema } from '../../channels/message-schema.js';
import { parseDuration } from '../../config/duration.js';
import { EVENT_KINDS, type EventKind } from '../../positions/index.js';
import { explainRoute, type MuteScope, syntheticEvent } from '../../routing/index.js';
import type { CommandContext } from '../context.js';
import { withApp } from '../context.js';
import { CliError, EXIT } from '../exit.js';
import { renderTable } from '../table.js';

/** `shortwatch deliveries [--failed]`: parked (failed) deliveries per channel — the dead letter. */
export async function deliveriesCommand(ctx: CommandContext, options: { failed?: boolean }): Promise<void> {
  await withApp(ctx, async (app) => {
    const rows: (string | number)[][] = [];
    for (const channel of app.settings.config.channels) {
      const queue = app.queues.deliver(channel.name);
      const states = options.failed
        ? (['failed'] as const)
        : (['failed', 'waiting', 'delayed', 'active'] as const);
      for (const state of states) {
        for (const job of await queue.getJobs([state], 0, 199)) {
          const parsed = deliveryJobSchema.safeParse(job.data);
          const what = parsed.success ? summarise(parsed.data.message) : 'unreadable job data';
          rows.push([channel.name, String(job.id), state, job.attemptsMade, what, job.failedReason ?? '']);
        }
      }
    }
    ctx.out(renderTable(['CHANNEL', 'JOB', 'STATE', 'ATTEMPTS', 'MESSAGE', 'LAST ERROR'], rows));
    ctx.out(
      `\n${rows.length} deliveries${options.failed ? ' parked' : ''}. Retry with: shortwatch deliveries retry <job>|--all`,
    );
  });
}

/** `shortwatch deliveries retry <job>|--all`: sends parked deliveries again. */
export async function retryCommand(
  ctx: CommandContext,
  jobId: string | undefined,
  options: { all?: boolean; channel?: string },
): Promise<void> {
  if (!jobId && !options.all) throw new CliError('name a job id or pass --all', EXIT.usage);
  await withApp(ctx, async (app) => {
    let retried = 0;
    for (const channel of app.settings.config.channels) {
      if (options.channel && channel.name !== options.channel) continue;
      const queue = app.queues.deliver(channel.name);
      let retriedHere = 0;
      for (const job of await queue.getJobs(['failed'], 0, -1)) {
        if (jobId && job.id !== jobId) continue;
        await job.retry('failed', { resetAttemptsMade: true });
        retriedHere += 1;
      }
      retried += retriedHere;
      // A channel's notice stays while any of its deliveries is still parked.
      if (retriedHere > 0 && (await queue.getFailedCount()) === 0)
        await app.ctx.notices.clear(`channel-parked-${channel.name}`, 'Parked deliveries were retried.');
    }
    if (jobId && retried === 0) throw new CliError(`no failed delivery with id ${jobId}`);
    ctx.out(`${retried} deliveries queued again; a running daemon sends them.`);
  });
}

/** `shortwatch test-notify <channel>`: queues a clearly marked sample message to one channel. */
export async function testNotifyCommand(ctx: CommandContext, name: string): Promise<void> {
  const channel = ctx.config.channels.find((c) => c.name === name);
  if (!channel)
    throw new CliError(
      `no channel named "${name}" (have: ${ctx.config.channels.map((c) => c.name).join(', ')})`,
      EXIT.usage,
    );
  await withApp(ctx, async (app) => {
    const sender = app.settings.senders.get(name);
    if (!sender) throw new CliError(`channel "${name}" has no sender`);
    const sentAt = app.ctx.now().toISOString();
    await sender.send({ type: 'test', channel: name, sentAt });
    ctx.out(`Sent a test message to ${name} (${channel.kind}).`);
  });
}

/** `shortwatch route ...`: which channels an imagined event would reach, and why not the others. */
export async function routeCommand(
  ctx: CommandContext,
  options: { issuer: string; holder: string; kind: string; value: string; previous?: string },
): Promise<void> {
  const kind: EventKind | undefined = EVENT_KINDS.find((k) => k === options.kind);
  if (!kind) throw new CliError(`--kind must be one of ${EVENT_KINDS.join(', ')}`, EXIT.usage);
  const value = Number(options.value);
  if (!Number.isFinite(value)) throw new CliError('--value must be a number (percent)', EXIT.usage);
  await withApp(ctx, async (app) => {
    const now = app.ctx.now();
    const directory = (await app.ctx.directory.load())?.issuers ?? [];
    const known = directory.find(
      (i) => i.svc_issuer_id === options.issuer || i.name.toLowerCase() === options.issuer.toLowerCase(),
    );
    const event = syntheticEvent({
      issuer: known ? { id: known.svc_issuer_id, name: known.name } : options.issuer,
      holder: options.holder,
      kind,
      value,
      previous: options.previous === undefined ? undefined : Number(options.previous),
      thresholds: app.settings.config.poll.thresholds,
      now,
    });
    const verdicts = explainRoute(event, app.settings.config.channels, await app.ctx.mutes.list(), now);
    ctx.out(
      renderTable(
        ['CHANNEL', 'VERDICT', 'WHY'],
        verdicts.map((v) => [v.channel, v.verdict, v.reason]),
      ),
    );
  });
}

/** `shortwatch mute holder|issuer NAME --for 7d`. */
export async function muteCommand(
  ctx: CommandContext,
  scope: string,
  target: string,
  options: { for: string; channel?: string; reason?: string; digests?: boolean },
): Promise<void> {
  const forMs = parseDuration(options.for);
  if (scope !== 'holder' && scope !== 'issuer') throw new CliError('mute what? holder or issuer', EXIT.usage);
  if (!forMs) throw new CliError(`--for: "${options.for}" is not a duration (e.g. 7d, 12h)`, EXIT.usage);
  if (options.channel && !ctx.config.channels.some((c) => c.name === options.channel)) {
    throw new CliError(`no channel named "${options.channel}"`, EXIT.usage);
  }
  await withApp(ctx, async (app) => {
    const mute = await app.ctx.mutes.add({
      scope: scope satisfies MuteScope,
      target,
      channel: options.channel,
      reason: options.reason,
      digests: options.digests ?? false,
      forMs,
    });
    ctx.out(
      `Muted ${scope} "${target}" on ${mute.channel ?? 'every channel'} until ${new Date(mute.until).toISOString()}${mute.digests ? ' (digests too)' : ' (digests still receive it)'}.`,
    );
  });
}

/** `shortwatch unmute holder|issuer NAME [--channel C]`. */
export async function unmuteCommand(
  ctx: CommandContext,
  scope: string,
  target: string,
  options: { channel?: string },
): Promise<void> {
  if (scope !== 'holder' && scope !== 'issuer')
    throw new CliError('unmute what? holder or issuer', EXIT.usage);
  await withApp(ctx, async (app) => {
    const removed = await app.ctx.mutes.remove(scope, target, options.channel);
    ctx.out(
      removed
        ? `Unmuted ${scope} "${target}".`
        : `No such mute: ${scope} "${target}"${options.channel ? ` on ${options.channel}` : ''}.`,
    );
  });
}

/** `shortwatch mutes`: mutes in force and how many events each channel suppressed. */
export async function mutesCommand(ctx: CommandContext): Promise<void> {
  await withApp(ctx, async (app) => {
    const mutes = await app.ctx.mutes.list();
    ctx.out(
      renderTable(
        ['SCOPE', 'TARGET', 'CHANNEL', 'UNTIL', 'DIGESTS', 'REASON'],
        mutes.map((m) => [
          m.scope,
          m.target,
          m.channel ?? '*',
          new Date(m.until).toISOString(),
          m.digests ? 'muted' : 'kept',
          m.reason ?? '',
        ]),
      ),
    );
    const counts = await app.ctx.mutes.suppressedCounts();
    const summary = Object.entries(counts)
      .map(([channel, n]) => `${channel}: ${n}`)
      .join(', ');
    ctx.out(`\nSuppressed events so far: ${summary || 'none'}`);
  });
}

function summarise(message: { type: string } & Record<string, unknown>): string {
  if (message.type === 'events' && Array.isArray(message.events)) {
    const issuer =
      message.issuer && typeof message.issuer === 'object' && 'name' in message.issuer
        ? String(message.issuer.name)
        : '?';
    return `${message.events.length} events in ${issuer}`;
  }
  if (message.type === 'digest' && Array.isArray(message.events))
    return `digest of ${message.events.length} events`;
  return message.type;
}
