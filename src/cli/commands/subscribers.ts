import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { extname } from 'node:path';
import type { App } from '../../app.js';
import { displayText } from '../../channels/format.js';
import { cronPatternProblem } from '../../preflight/cron-pattern.js';
import { type Subscriber, type SubscriberInput, webhookShown } from '../../routing/subscriber.js';
import { manageLink } from '../../routing/subscriber-links.js';
import { type Actor, isSubscriberChangeError, SubscriberChangeError } from '../../state/subscriber-store.js';
import type { CommandContext } from '../context.js';
import { withApp } from '../context.js';
import { CliError, EXIT } from '../exit.js';
import { readSubscriberFile, subscribersCsv, subscribersYaml } from '../subscriber-file.js';
import { renderTable } from '../table.js';

/** The options `add` and `edit` share: what a subscriber follows and wants. */
export interface SubscriberOptions {
  name?: string;
  email?: string;
  webhook?: string;
  slackUser?: string;
  removeWebhook?: boolean;
  removeSlackUser?: boolean;
  issuer?: string[];
  holder?: string[];
  removeIssuer?: string[];
  removeHolder?: string[];
  kinds?: string;
  minValue?: string;
  minDelta?: string;
  mode?: string;
  timezone?: string;
  digest?: string;
  pause?: boolean;
  resume?: boolean;
}

function operator(): Actor {
  return { who: process.env.USER ?? 'operator', via: 'cli', from: hostname() };
}

/** Runs a store change, turning its refusals into exit 2 with their words. */
async function changing<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isSubscriberChangeError(error)) throw new CliError(error.message, EXIT.usage);
    throw error;
  }
}

/** A subscriber named by id or e-mail, or exit 2. */
async function find(app: App, who: string): Promise<Subscriber> {
  const found = who.includes('@')
    ? await app.ctx.subscribers.byEmail(who)
    : await app.ctx.subscribers.get(who);
  if (!found)
    throw new CliError(`no subscriber "${displayText(who)}" (an id or an e-mail address)`, EXIT.usage);
  return found;
}

function numberOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new CliError(`${name}: "${value}" is not a number`, EXIT.usage);
  return n;
}

/** The preferences the options set over `prefs`. */
function prefsFrom(options: SubscriberOptions, prefs: Record<string, unknown> = {}): Record<string, unknown> {
  const next = { ...prefs };
  if (options.kinds !== undefined)
    next.kinds = options.kinds
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
  const minValue = numberOption(options.minValue, '--min-value');
  if (minValue !== undefined) next.minValue = minValue;
  const minDelta = numberOption(options.minDelta, '--min-delta');
  if (minDelta !== undefined) next.minDelta = minDelta;
  if (options.mode !== undefined) next.mode = options.mode;
  if (options.timezone !== undefined) next.timezone = options.timezone;
  if (options.digest !== undefined) {
    const problem = cronPatternProblem(options.digest, options.timezone ?? 'UTC');
    if (problem) throw new CliError(`--digest "${options.digest}": ${problem}`, EXIT.usage);
    next.digestSchedule = options.digest;
  }
  if (options.pause) next.paused = true;
  if (options.resume) next.paused = false;
  return next;
}

/** `shortwatch subscribers add --name N --email E --issuer X …`. */
export async function addSubscriberCommand(ctx: CommandContext, options: SubscriberOptions): Promise<void> {
  if (!options.name || !options.email) throw new CliError('--name and --email are required', EXIT.usage);
  const input: SubscriberInput = {
    name: options.name,
    email: options.email,
    ...(options.webhook === undefined ? {} : { webhook: options.webhook }),
    ...(options.slackUser === undefined ? {} : { slackUser: options.slackUser }),
    watch: { issuers: options.issuer ?? [], holders: options.holder ?? [] },
    prefs: prefsFrom(options),
  };
  await withApp(ctx, async (app) => {
    const added = await changing(() => app.ctx.subscribers.add(input, operator()));
    ctx.out(`Added subscriber ${added.id}: ${describe(added)}.`);
  });
}

/** `shortwatch subscribers edit ID|EMAIL [--issuer X] [--remove-issuer X] [--pause] …`. */
export async function editSubscriberCommand(
  ctx: CommandContext,
  who: string,
  options: SubscriberOptions,
): Promise<void> {
  await withApp(ctx, async (app) => {
    const current = await find(app, who);
    const edited = await changing(() =>
      app.ctx.subscribers.update(current.id, (s) => edit(s, options), operator()),
    );
    ctx.out(`Edited subscriber ${edited.id} (version ${edited.version}): ${describe(edited)}.`);
  });
}

function edit(s: Subscriber, options: SubscriberOptions): Subscriber {
  const without = (list: string[], removed: string[] | undefined) =>
    list.filter((item) => !(removed ?? []).some((r) => r.toLowerCase() === item.toLowerCase()));
  const issuers = [
    ...new Set([...without(s.watch.issuers, options.removeIssuer), ...(options.issuer ?? [])]),
  ];
  const holders = [
    ...new Set([...without(s.watch.holders, options.removeHolder), ...(options.holder ?? [])]),
  ];
  const { webhook, slackUser, ...rest } = s;
  const hook = options.removeWebhook ? undefined : (options.webhook ?? webhook);
  const user = options.removeSlackUser ? undefined : (options.slackUser ?? slackUser);
  return {
    ...rest,
    ...(hook === undefined ? {} : { webhook: hook }),
    ...(user === undefined ? {} : { slackUser: user }),
    name: options.name ?? s.name,
    email: options.email ?? s.email,
    watch: { issuers, holders },
    prefs: { ...s.prefs, ...(prefsFrom(options) as Partial<Subscriber['prefs']>) },
  };
}

/** `shortwatch subscribers remove ID|EMAIL`. */
export async function removeSubscriberCommand(ctx: CommandContext, who: string): Promise<void> {
  await withApp(ctx, async (app) => {
    const current = await find(app, who);
    await changing(() => app.ctx.subscribers.remove(current.id, operator()));
    ctx.out(`Removed subscriber ${current.id} (${displayText(current.email)}).`);
  });
}

/** `shortwatch subscribers list`. */
export async function listSubscribersCommand(ctx: CommandContext): Promise<void> {
  await withApp(ctx, async (app) => {
    const all = await app.ctx.subscribers.list();
    if (all.length === 0) {
      ctx.out(
        'No subscribers. Add one: shortwatch subscribers add --name "Ann Trader" --email ann@desk.example --issuer "Fugro"',
      );
      return;
    }
    const rows = all.map((s) => [
      s.id,
      displayText(s.name),
      displayText(s.email),
      state(s),
      String(s.watch.issuers.length),
      String(s.watch.holders.length),
      s.prefs.mode,
    ]);
    ctx.out(renderTable(['ID', 'NAME', 'E-MAIL', 'STATE', 'ISSUERS', 'HOLDERS', 'MODE'], rows));
    ctx.out(`${all.length} subscriber${all.length === 1 ? '' : 's'}.`);
  });
}

/** `shortwatch subscribers show ID|EMAIL`: the record, a fresh link, and the last changes. */
export async function showSubscriberCommand(ctx: CommandContext, who: string): Promise<void> {
  await withApp(ctx, async (app) => {
    const s = await find(app, who);
    ctx.out(`${s.id}  ${displayText(s.name)} <${displayText(s.email)}>  ${state(s)}  version ${s.version}`);
    ctx.out(`  issuers: ${s.watch.issuers.map(displayText).join(', ') || '(none)'}`);
    ctx.out(`  holders anywhere: ${s.watch.holders.map(displayText).join(', ') || '(none)'}`);
    ctx.out(`  wants: ${wants(s)}`);
    if (s.webhook !== undefined) ctx.out(`  webhook: ${displayText(webhookShown(s.webhook))}`);
    if (s.slackUser !== undefined) ctx.out(`  slack user: ${displayText(s.slackUser)}`);
    const link = manageLink(app.settings.config, s, app.ctx.now());
    if (link) ctx.out(`  manage link: ${link}`);
    for (const entry of await app.ctx.subscribers.audit(s.id, 10))
      ctx.out(
        `  ${entry.at} ${entry.action} (v${entry.version}) by ${displayText(entry.who)} via ${entry.via}${entry.from ? ` from ${displayText(entry.from)}` : ''}${entry.changed.length > 0 ? `: ${entry.changed.join(', ')}` : ''}`,
      );
  });
}

/** `shortwatch subscribers import FILE [--dry-run]`: adds new addresses, updates known ones. */
export async function importSubscribersCommand(
  ctx: CommandContext,
  file: string,
  options: { dryRun?: boolean },
): Promise<number> {
  const format = /\.ya?ml$/iu.test(extname(file)) ? 'yaml' : 'csv';
  const rows = readSubscriberFile(readFileSync(file, 'utf8'), format);
  return withApp(ctx, async (app) => {
    const counts = { added: 0, updated: 0, refused: 0 };
    const actor: Actor = { who: `import ${file}`, via: 'import', from: hostname() };
    for (const { row, input } of rows) {
      try {
        const outcome = await importOne(app, input, actor, options.dryRun ?? false);
        counts[outcome]++;
      } catch (error) {
        if (!isSubscriberChangeError(error)) throw error;
        counts.refused++;
        ctx.out(`row ${row}: ${error.message}`);
      }
    }
    const verb = options.dryRun ? 'Would add' : 'Added';
    ctx.out(
      `${verb} ${counts.added}, ${options.dryRun ? 'would update' : 'updated'} ${counts.updated}, refused ${counts.refused} of ${rows.length} rows.`,
    );
    return counts.refused > 0 ? EXIT.failure : EXIT.ok;
  });
}

async function importOne(
  app: App,
  input: unknown,
  actor: Actor,
  dryRun: boolean,
): Promise<'added' | 'updated'> {
  const store = app.ctx.subscribers;
  const checked = store.check(input);
  // Refused here as `--digest` is: the schema knows a pattern's length, only the scheduler's parser its sense.
  const { digestSchedule, timezone } = checked.prefs;
  const problem = cronPatternProblem(digestSchedule, timezone);
  if (problem)
    throw new SubscriberChangeError(`prefs.digestSchedule: "${digestSchedule}" ${problem}`, 'invalid');
  const existing = await store.byEmail(checked.email);
  if (dryRun) return existing ? 'updated' : 'added';
  if (!existing) {
    await store.add(checked, actor);
    return 'added';
  }
  await store.update(existing.id, (s) => ({ ...s, ...checked }), actor, 'imported');
  return 'updated';
}

/** `shortwatch subscribers export [--format csv|yaml]`. */
export async function exportSubscribersCommand(
  ctx: CommandContext,
  options: { format?: string },
): Promise<void> {
  const format = options.format ?? 'csv';
  if (format !== 'csv' && format !== 'yaml')
    throw new CliError(`--format: csv or yaml, not "${format}"`, EXIT.usage);
  await withApp(ctx, async (app) => {
    const all = await app.ctx.subscribers.list();
    process.stdout.write(format === 'csv' ? subscribersCsv(all) : subscribersYaml(all));
  });
}

function state(s: Subscriber): string {
  if (s.unsubscribedAt) return `unsubscribed ${s.unsubscribedAt.slice(0, 10)}`;
  return s.prefs.paused ? 'paused' : 'active';
}

function wants(s: Subscriber): string {
  const parts = [s.prefs.kinds.length > 0 ? s.prefs.kinds.join('/') : 'every kind'];
  if (s.prefs.minValue !== undefined) parts.push(`from ${s.prefs.minValue}%`);
  if (s.prefs.minDelta !== undefined) parts.push(`moves of ${s.prefs.minDelta} pp or more`);
  parts.push(s.prefs.aggregates ? 'aggregates too' : 'no aggregates', s.prefs.mode);
  return parts.join(', ');
}

function describe(s: Subscriber): string {
  const also = [s.webhook ? 'webhook' : '', s.slackUser ? 'Slack DM' : ''].filter(Boolean).join(' and ');
  return `${displayText(s.name)} <${displayText(s.email)}>${also ? ` (and ${also})` : ''}, ${s.watch.issuers.length} issuer(s), ${s.watch.holders.length} holder(s) anywhere, ${wants(s)}`;
}
